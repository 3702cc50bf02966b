import CourierDomain
import CourierStore

/// A `MessageRepository` that remembers what it saw online in a `MessageCache` and answers from it when the
/// backend cannot be reached (see `CachingRepository`).
///
/// - Pages loaded are stored in the cache (delivered messages only).
/// - Sends pass through and are never answered from the cache: a pending message belongs to the outbox, which owns
///   its status — a send that returned means stored, whatever status the backend echoed — and keeps the messages
///   the backend stored in the cache as it shows them (`DurableOutbox`'s `messageCache`), once each.
/// - A page request that fails with a retryable error (offline, timeout, server) is answered from the cache when
///   it holds messages before the cursor (or the conversation's start); otherwise the error is thrown as is.
/// - Other errors (sign-in, not found, validation) are never masked by cached data.
public typealias CachingMessageRepository = CachingRepository<any MessageRepository, MessageCache>

extension CachingRepository: MessageRepository where Base == any MessageRepository, Cache == MessageCache {
    /// Sends through the wrapped repository.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await base.send(message)
    }

    /// Sends the batch through the wrapped repository, as one ordered batch.
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        try await base.sendBatch(messages)
    }

    /// The page from the backend (kept in the cache), or from the cache when the backend is unreachable.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        try await page(
            { try await base.messages(in: conversation, before: cursor, limit: limit) },
            keep: { cache.store($0, in: conversation) },
            orCached: {
                cache.page(in: conversation, before: cursor, limit: limit).map {
                    MessagePage(messages: $0.messages, hasMore: $0.hasMore, isCached: true)
                }
            })
    }
}

extension CachingRepository: CachedMessagePages where Base == any MessageRepository, Cache == MessageCache {
    public func cachedMessages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        -> MessagePage?
    {
        cache.page(in: conversation, before: cursor, limit: limit)
    }
}
