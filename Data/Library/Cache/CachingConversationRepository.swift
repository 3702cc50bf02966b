import CourierDomain
import CourierStore

/// A `ConversationRepository` that keeps every page it loads in a `ConversationCache` and answers from it when the
/// backend cannot be reached, so the list survives going offline and relaunching (see `CachingRepository`).
public typealias CachingConversationRepository = CachingRepository<any ConversationRepository, ConversationCache>

extension CachingRepository: ConversationRepository
where Base == any ConversationRepository, Cache == ConversationCache {
    /// The page from the backend, kept in the cache reconciled with what it holds (`ConversationCache.take(_:)`), or
    /// from the cache (`isCached`) when the backend is unreachable. The page is answered as the backend gave it: a
    /// screen shows a page as the sync answers it (`LiveSync.reconcile(_:requestedAt:)`), which takes it in with what only the
    /// sync knows.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        try await page(
            { try await base.conversations(of: user, after: cursor, limit: limit) },
            keep: { _ = cache.take($0.conversations) },
            orCached: { cachedConversations(after: cursor, limit: limit) })
    }
}

extension CachingRepository: CachedConversationPages
where Base == any ConversationRepository, Cache == ConversationCache {
    public func cachedConversations(after cursor: ConversationCursor?, limit: Int) -> ConversationPage? {
        cache.page(after: cursor, limit: limit).map {
            ConversationPage(conversations: $0.conversations, hasMore: $0.hasMore, isCached: true)
        }
    }
}
