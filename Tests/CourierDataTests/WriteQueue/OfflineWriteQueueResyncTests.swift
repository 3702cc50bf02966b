import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// While online, a write whose sync spent its retries is tried again by the queue itself, on a growing, capped
/// delay on the injected clock — no user action and no reconnect needed.
@MainActor
@Suite struct OfflineWriteQueueResyncTests {
    @Test func aWriteLeftBehindIsSyncedAgainAfterAGrowingCappedDelay() async throws {
        // Given a write the backend times out on for three syncs' worth of attempts (4 each), then takes
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(maxAttempts: nil))
        let queue = try fixture.open()
        try fixture.enqueue(queue, "name")
        fixture.executor.script = Array(repeating: DeliveryError.timeout, count: 12)
        let start = fixture.clock.now

        // When one sync runs (1 + 2 + 4 s of backoff) and the device stays online for 5 minutes
        #expect(await fixture.syncAdvancingClock(queue) == 0)
        let planned = queue.nextResync
        await fixture.clock.advance(by: .seconds(300))

        // Then the queue synced again 30 s after, then 60 s after that, and the third follow-up delivered it
        #expect(planned == start.addingTimeInterval(7 + 30))
        #expect(fixture.executor.calls.count == 13)
        #expect(fixture.executor.deliveredValues == ["name"])
        #expect(queue.count == 0)
        #expect(queue.nextResync == nil, "nothing left behind: nothing planned")
    }

    @Test func theDelayDoublesUpToFiveMinutes() async throws {
        // Given a write that never gets through, with no attempt limit
        let fixture = WriteQueueFixture(
            configuration: WriteQueueConfiguration(maxAttempts: nil), retryPolicy: .init(maxRetries: 0, jitter: 0))
        let queue = try fixture.open()
        try fixture.enqueue(queue, "name")
        fixture.executor.script = Array(repeating: DeliveryError.server(code: 503), count: 100)

        // When it syncs once and time passes
        #expect(await fixture.syncAdvancingClock(queue) == 0)
        var gaps: [TimeInterval] = []
        var last = fixture.clock.now
        for _ in 0..<6 {
            let next = try #require(queue.nextResync)
            gaps.append(next.timeIntervalSince(last))
            await fixture.clock.advance(by: .seconds(next.timeIntervalSince(fixture.clock.now)))
            last = next
        }

        // Then the follow-ups came 30 s, 60 s, 120 s, 240 s, then 300 s apart (the cap)
        #expect(gaps == [30, 60, 120, 240, 300, 300])
        #expect(fixture.executor.calls.count == 7)
    }

    @Test func offlineNothingIsPlanned() async throws {
        // Given a write and a device that goes offline during the sync's backoff
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        try fixture.enqueue(queue, "name")
        fixture.executor.script = [DeliveryError.offline]
        fixture.connectivity.set(online: false)

        // When the sync ends
        _ = await fixture.syncAdvancingClock(queue)

        // Then no follow-up is planned: reconnecting syncs
        #expect(queue.nextResync == nil)
        #expect(queue.count == 1)
    }
}
