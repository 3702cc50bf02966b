import CourierDomain
import CourierStore

/// A repository (or feed) in front of the app's own that tells `BackendReachability` what each request learned: no
/// connection could be made (`DeliveryError.unreachable`), or one was and nothing answered within the transport's bound
/// (`unanswered`, lie-fi) → unreachable; an answer, even an error the backend gave →
/// reachable. `offline`, `timeout` and a `cancelled` request say nothing about the backend. Errors pass through
/// unchanged. `CourierClient` puts it under every repository it is given.
public struct ReachabilityTracking<Base: Sendable>: Sendable {
    let base: Base
    let reachability: BackendReachability

    /// Wraps `base`, reporting to `reachability`.
    public init(wrapping base: Base, reachability: BackendReachability) {
        self.base = base
        self.reachability = reachability
    }

    /// Runs `request` (a call of the wrapped repository, which throws `DeliveryError` alone), reporting what it
    /// learned.
    func tracked<Value: Sendable>(_ request: () async throws -> Value) async throws(DeliveryError) -> Value {
        do {
            let value = try await request()
            await reachability.answered()
            return value
        } catch {
            let error = DeliveryError(error)
            switch error {
            case .unreachable, .unanswered: await reachability.connectionFailed()
            case .offline, .timeout, .cancelled: break
            default: await reachability.answered()
            }
            throw error
        }
    }
}

extension ReachabilityTracking: MessageRepository where Base == any MessageRepository {
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await tracked { try await base.send(message) }
    }

    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        try await tracked { try await base.sendBatch(messages) }
    }

    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        try await tracked { try await base.messages(in: conversation, before: cursor, limit: limit) }
    }
}

extension ReachabilityTracking: ConversationRepository where Base == any ConversationRepository {
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        try await tracked { try await base.conversations(of: user, after: cursor, limit: limit) }
    }
}

extension ReachabilityTracking: UserRepository where Base == any UserRepository {
    public func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        try await tracked { try await base.users(ids) }
    }

    public func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        try await tracked { try await base.presence(ids) }
    }
}

extension ReachabilityTracking: EventFeed where Base == any EventFeed {
    public func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition {
        try await tracked { try await base.feedEnd(for: user) }
    }

    public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    {
        try await tracked { try await base.events(for: user, after: cursor, limit: limit, wait: wait) }
    }

    public func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        async throws(DeliveryError) -> FeedSnapshot
    {
        try await tracked {
            try await base.snapshot(
                for: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit)
        }
    }

    public func mark(_ receipt: Receipt) async throws(DeliveryError) {
        try await tracked { try await base.mark(receipt) }
    }
}
