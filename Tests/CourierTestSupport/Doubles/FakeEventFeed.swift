import CourierDomain
import Foundation

/// The event feed a test drives: the one stand-in for `EventFeed`, for the code in front of one (the sync engine, the
/// client).
///
/// It keeps the events the test pushes (positions 1, 2, 3 …), answers a request for events after a cursor with up
/// to `limit` of them, and holds a long poll on the clock until the test pushes something or the wait runs out — as
/// a backend does. The test can make requests answer `.expired` (`expired`), throw (`failures`, one per request),
/// take `latency` on the clock, and read every request and every receipt written.
@MainActor
public final class FakeEventFeed: EventFeed {
    /// Every event pushed, oldest first.
    public private(set) var events: [FeedEvent] = []
    /// Conversations the next batch answered says were cut short (`FeedBatch.gaps`); cleared once answered.
    public var gaps: [ConversationID] = []
    /// While true, every request for events answers `.expired`.
    public var expired = false
    /// Errors the next requests (of any kind) throw, one each, in order.
    public var failures: [DeliveryError] = []
    /// How long each request takes on the clock before it is answered.
    public var latency: Duration = .zero
    /// What `snapshot` answers (its position is the feed's end when nil is given for it).
    public var snapshotPages: (conversations: ConversationPage, chats: [ConversationID: MessagePage]) =
        (ConversationPage(conversations: [], hasMore: false), [:])
    /// The receipts written, in order.
    public private(set) var marks: [Receipt] = []
    /// Each request for events: the cursor and the wait asked for.
    public private(set) var requests: [(cursor: FeedPosition, wait: Duration)] = []
    /// How many snapshots were asked for.
    public private(set) var snapshots = 0

    private let clock: ManualClock
    private var held: [Int: TrackedTask<Bool>] = [:]
    private var nextHold = 0

    /// A feed on `clock` holding no events.
    public init(clock: ManualClock) { self.clock = clock }

    /// How many long polls are held now.
    public var heldPolls: Int { held.count }

    /// The newest event's position.
    public var end: FeedPosition { events.last?.position ?? .start }

    /// Appends `change` at the next position and wakes every held poll; returns the event.
    @discardableResult
    public func push(_ change: FeedEvent.Change) -> FeedEvent {
        let event = FeedEvent(position: FeedPosition((end.number ?? 0) + 1), change: change)
        events.append(event)
        for hold in held.values { hold.cancel() }
        return event
    }

    /// Forgets every event (positions go on): a cursor behind the end now answers `.expired`.
    public func forgetAll() { expired = true }

    /// Loses every event after the first `count`, as a backend restored from an old copy does: positions start again
    /// from there, and a cursor past the end is answered from the end with no word of what was lost (a Matrix
    /// homeserver clamps a token from its future so).
    public func lose(keepingFirst count: Int) { events = Array(events.prefix(count)) }

    // MARK: - EventFeed

    @MainActor public func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition {
        try await DeliveryError.converting {
            try await answer()
            return end
        }
    }

    @MainActor public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    {
        try await DeliveryError.converting {
            requests.append((cursor, wait))
            try await answer()
            if expired && cursor.precedes(end) == true { return .expired }
            if wait > .zero, !events.contains(where: { cursor.precedes($0.position) == true }) {
                await hold(until: clock.now.addingTimeInterval(wait.timeInterval))
                if Task.isCancelled { throw DeliveryError.cancelled }
            }
            let after = events.filter { cursor.precedes($0.position) == true }
            let batch = Array(after.prefix(limit))
            // A cursor past the end (the feed lost events) is answered with the end, as it now stands.
            let floor = end.precedes(cursor) == true ? end : cursor
            defer { gaps = [] }
            return .batch(
                FeedBatch(
                    events: batch, end: batch.last?.position ?? floor, hasMore: after.count > batch.count, gaps: gaps))
        }
    }

    @MainActor public func snapshot(
        for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int
    ) async throws(DeliveryError) -> FeedSnapshot {
        try await DeliveryError.converting {
            snapshots += 1
            try await answer()
            expired = false
            return FeedSnapshot(
                position: end, conversations: snapshotPages.conversations,
                chats: snapshotPages.chats.filter { chats.contains($0.key) })
        }
    }

    @MainActor public func mark(_ receipt: Receipt) async throws(DeliveryError) {
        try await DeliveryError.converting {
            try await answer()
            marks.append(receipt)
        }
    }

    // MARK: - Private

    private func answer() async throws {
        if latency > .zero { try await clock.sleep(for: latency) }
        if !failures.isEmpty { throw failures.removeFirst() }
    }

    private func hold(until deadline: Date) async {
        let key = nextHold
        nextHold += 1
        let clock = clock
        let sleep = clock.task { (try? await clock.sleep(until: deadline)) != nil }
        held[key] = sleep
        defer { held[key] = nil }
        _ = await withTaskCancellationHandler {
            await sleep.value
        } onCancel: {
            sleep.cancel()
        }
    }
}
