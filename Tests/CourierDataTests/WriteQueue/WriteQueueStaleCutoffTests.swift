import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The stale cutoff at its edge: a write is removed when it is older than 7 days, so one exactly 7 days old is kept
/// and one a second older is removed — when the queue opens and before a sync.
@MainActor
@Suite struct WriteQueueStaleCutoffTests {
    static let sevenDays = 7 * 86_400

    @Test func atOpenAWriteExactlySevenDaysOldIsKeptAndOneASecondOlderIsRemoved() async throws {
        // Given a write, another one second later, and then 7 days after the second
        let fixture = WriteQueueFixture()
        let running = try fixture.open()
        let older = try fixture.enqueue(running, "older")
        await fixture.clock.advance(by: .seconds(1))
        let edge = try fixture.enqueue(running, "edge")
        await fixture.clock.advance(by: .seconds(Self.sevenDays))

        // When the queue opens
        let queue = try fixture.open()

        // Then only the write older than 7 days was removed and reported
        #expect(queue.openReport == WriteQueueOpenReport(loaded: 1, expired: [older], skippedRecords: 0))
        #expect(queue.allWrites == [edge])
    }

    @Test func beforeASyncAWriteExactlySevenDaysOldIsDeliveredAndOneASecondOlderExpires() async throws {
        // Given the same two writes in a queue that stayed open
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let older = try fixture.enqueue(queue, "older")
        await fixture.clock.advance(by: .seconds(1))
        try fixture.enqueue(queue, "edge")
        await fixture.clock.advance(by: .seconds(Self.sevenDays))

        // When it syncs
        let synced = await queue.syncWhenOnline()

        // Then the older one was removed and reported first, without being sent; the one exactly 7 days old went out
        #expect(synced == 1)
        #expect(fixture.executor.deliveredValues == ["edge"])
        #expect(fixture.events.outcomes.first == .expired(older))
        #expect(fixture.events.outcomes.filter { if case .expired = $0 { true } else { false } } == [.expired(older)])
        #expect(try fixture.open().count == 0)
    }
}
