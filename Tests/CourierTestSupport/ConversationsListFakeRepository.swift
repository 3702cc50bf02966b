import CourierDomain
import Foundation

/// A backend's conversation list: pages by cursor, most recent activity first, each answer after `latency` of
/// clock time. Counts requests; `fail(with:)` makes the next requests throw.
public final class ConversationsListFakeRepository: ConversationRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: ManualClock
    private let latency: Duration
    private var all: [Conversation]
    private var requests = 0
    private var failing: DeliveryError?

    /// Creates a backend holding `conversations` (any order).
    public init(_ conversations: [Conversation], clock: ManualClock, latency: Duration = .seconds(1)) {
        all = conversations.sorted { ($0.lastActivity, $0.id) > ($1.lastActivity, $1.id) }
        self.clock = clock
        self.latency = latency
    }

    /// How many page requests were served.
    public var requestCount: Int { lock.withLock { requests } }

    /// Makes the next requests fail with `error` (nil: answer again).
    public func fail(with error: DeliveryError?) { lock.withLock { failing = error } }

    /// The page of at most `limit` conversations after `cursor`, after `latency`.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        try await DeliveryError.converting {
            // A bad limit is a typed error, as the real backend answers, not a trap that ends the whole test run.
            guard limit > 0 else { throw DeliveryError.validation(reason: "a page holds at least one conversation") }
            let (conversations, error) = lock.withLock {
                requests += 1
                return (all, failing)
            }
            try await clock.sleep(for: latency)
            if let error { throw error }
            let rest = cursor.map { cursor in
                conversations.filter { ($0.lastActivity, $0.id) < (cursor.lastActivity, cursor.id) }
            } ?? conversations
            return ConversationPage(conversations: Array(rest.prefix(limit)), hasMore: rest.count > limit)
        }
    }
}
