import CourierDomain

/// A `ConversationRepository` that keeps every page it loads in a `ConversationCache` and answers from it when the
/// backend cannot be reached, so the list survives going offline and relaunching (see `CachingRepository`).
public typealias CachingConversationRepository = CachingRepository<any ConversationRepository, ConversationCache>

extension CachingRepository: ConversationRepository
where Base == any ConversationRepository, Cache == ConversationCache {
    /// The page from the backend, its rows as the cache keeps them (`ConversationCache.take(_:)`: a row the cache
    /// holds from a newer message stays), or from the cache (`isCached`) when the backend is unreachable.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        var kept: [Conversation]?
        var answer = try await page(
            { try await base.conversations(of: user, after: cursor, limit: limit) },
            keep: { kept = cache.take($0.conversations) },
            orCached: {
                cache.page(after: cursor, limit: limit).map {
                    ConversationPage(conversations: $0.conversations, hasMore: $0.hasMore, isCached: true)
                }
            })
        // A row kept from a newer message may have moved: the page stays in activity order (ties as the backend had).
        if let kept { answer.conversations = ConversationCache.inActivityOrder(kept) }
        return answer
    }
}
