import CourierDomain
import Foundation

/// An app's own event feed, as an adopter would first write it: every event in one list, positions 1, 2, 3 …,
/// answered at once (it does not hold a long poll — the client then asks at most once a second), receipts kept.
final class ListFeed: EventFeed, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [FeedEvent] = []
    private var receipts: [Receipt] = []

    /// The receipts the app's client wrote, in order.
    var marks: [Receipt] { lock.withLock { receipts } }

    /// Someone else did something: the next event.
    func publish(_ change: FeedEvent.Change) {
        lock.withLock { events.append(FeedEvent(position: Self.position(events.count + 1), change: change)) }
    }

    /// An app's own feed hands out tokens of its own making, with no order stated: the device keeps them opaque.
    static func position(_ count: Int) -> FeedPosition { FeedPosition(token: "list-\(count)") }

    /// How many events a token of this feed has seen.
    static func count(at position: FeedPosition) -> Int { Int(position.token.dropFirst("list-".count)) ?? 0 }

    func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition {
        lock.withLock { Self.position(events.count) }
    }

    func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    {
        lock.withLock {
            let seen = Self.count(at: cursor)
            let after = events.dropFirst(seen).prefix(limit)
            return .batch(
                FeedBatch(
                    events: Array(after), end: after.last?.position ?? cursor,
                    hasMore: seen + after.count < events.count))
        }
    }

    func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        async throws(DeliveryError) -> FeedSnapshot
    {
        let end = lock.withLock { Self.position(events.count) }
        return FeedSnapshot(
            position: end, conversations: ConversationPage(conversations: [], hasMore: false), chats: [:])
    }

    func mark(_ receipt: Receipt) async throws(DeliveryError) { lock.withLock { receipts.append(receipt) } }
}
