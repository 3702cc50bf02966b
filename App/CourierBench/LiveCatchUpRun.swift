import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// One catch-up of `size` events: a client that was online before (its cursor at the feed's end, its list and each
/// chat's newest page cached) went offline while four peers sent `size` messages; its steps are going online, then
/// each wake-up of the clock — an answer of the simulated network (a batch of up to 500 events, applied to the
/// message cache, the conversation cache and the cursor, then the batch's delivered receipts queued), a receipt
/// delivered — each run until nothing can run, until the client is live and has applied, acknowledged and heard
/// back everything.
@MainActor
final class LiveCatchUpRun: LiveRun {
    let size: Int
    private(set) var seconds = 0.0
    private(set) var cpu = 0.0
    /// Events the engine applied during the catch-up (the peers' messages and the echoes of its own receipts).
    private(set) var applied = 0
    private let fixture: LiveFixture
    private let engine: SyncEngine
    private let newest: [Message]
    private let end: FeedPosition
    private var started = false
    private var appliedBefore = 0

    /// Builds the client and its past, untimed.
    init(size: Int) async throws {
        self.size = size
        let fixture = try LiveFixture(link: .network) { LiveData.catchUp(now: $0) }
        self.fixture = fixture
        guard let engine = fixture.engine else { throw BenchFailure("the client has no sync engine") }
        self.engine = engine
        guard await fixture.clock.run(until: { fixture.isSettled && engine.isLive }) else {
            throw BenchFailure("the client never reached the feed's end")
        }
        let client = fixture.client
        _ = try await fixture.drive {
            _ = try await client.conversations.conversations(of: LiveData.me, after: nil, limit: 50)
            for (conversation, _) in LiveData.catchUpConversations {
                _ = try await client.messages.messages(in: conversation, before: nil, limit: LiveCatchUp.pageSize)
            }
        }
        fixture.setOnline(false)
        await fixture.clock.idle()
        newest = try LiveData.peersSend(size, to: fixture.backend)
        end = fixture.backend.feedEndPosition(for: LiveData.me)
    }

    func step() async throws -> Bool {
        if started, caughtUp { return false }
        let cpuBefore = DriverBenchmark.cpuTime()
        let start = DispatchTime.now().uptimeNanoseconds
        if started {
            guard await fixture.clock.advanceToNextDeadline() else {
                throw BenchFailure("the catch-up of \(size) stopped with nothing left to wait for")
            }
        } else {
            started = true
            appliedBefore = engine.appliedEvents
            fixture.setOnline(true)
            await fixture.clock.idle()
        }
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        cpu += DriverBenchmark.cpuTime() - cpuBefore
        guard caughtUp else { return true }
        try check()
        return false
    }

    var progress: Double {
        started ? min(1, Double(engine.appliedEvents - appliedBefore) / Double(size)) : 0
    }

    private var caughtUp: Bool {
        fixture.isSettled && engine.isLive && engine.cursor.map { end.precedes($0) != false } == true
    }

    private func check() throws {
        applied = engine.appliedEvents - appliedBefore
        guard applied >= size else { throw BenchFailure("the catch-up of \(size) applied \(applied) events") }
        for message in newest where !fixture.client.messageCache.contains(message.id, in: message.conversationID) {
            throw BenchFailure("after the catch-up of \(size) the cache misses \(message.conversationID)'s newest")
        }
        for message in newest
        where fixture.backend.marker(.delivered, of: LiveData.me, in: message.conversationID) != message.id {
            throw BenchFailure("after the catch-up of \(size) \(message.conversationID) is not acknowledged")
        }
    }

    func close() { fixture.close() }
}
