import CourierDomain

/// A `MessageRepository` that remembers what it saw online in a `MessageCache` and answers from it when the
/// backend cannot be reached (see `CachingRepository`).
///
/// - Pages loaded and messages sent successfully are stored in the cache (delivered messages only).
/// - A page request that fails with a retryable error (offline, timeout, server) is answered from the cache when
///   it holds messages before the cursor (or the conversation's start); otherwise the error is thrown as is.
/// - Other errors (sign-in, not found, validation) are never masked by cached data.
/// - Sends are never answered from the cache: a pending message belongs to the outbox.
public typealias CachingMessageRepository = CachingRepository<any MessageRepository, MessageCache>

extension CachingRepository: MessageRepository where Base == any MessageRepository, Cache == MessageCache {
    /// Sends through the wrapped repository and keeps the stored message.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        // A send that returned means stored: the cache never keeps an echoed `queued` / `sending` copy.
        let stored = try await base.send(message).acknowledged(at: message.statusUpdatedAt)
        cache.store([stored])
        return stored
    }

    /// Sends the batch through the wrapped repository and keeps every message it stored.
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        let results = try await base.sendBatch(messages).map { result in
            result.map { $0.acknowledged(at: $0.statusUpdatedAt) }
        }
        cache.store(results.compactMap { try? $0.get() })
        return results
    }

    /// The page from the backend (kept in the cache), or from the cache when the backend is unreachable.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        try await page(
            { try await base.messages(in: conversation, before: cursor, limit: limit) },
            keep: { cache.store($0, in: conversation) },
            orCached: { cache.page(in: conversation, before: cursor, limit: limit) })
    }
}
