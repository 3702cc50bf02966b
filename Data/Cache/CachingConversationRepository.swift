import CourierDomain

/// A `ConversationRepository` that keeps every page it loads in a `ConversationCache` and answers from it when the
/// backend cannot be reached (a retryable error: offline, timeout, server), so the list survives going offline and
/// relaunching. Other errors (sign-in, validation) are never masked by cached data.
public final class CachingConversationRepository: ConversationRepository {
    private let base: any ConversationRepository
    private let cache: ConversationCache

    /// Wraps `base`, keeping what it returns in `cache`.
    public init(wrapping base: any ConversationRepository, cache: ConversationCache) {
        self.base = base
        self.cache = cache
    }

    /// The page from the backend (kept in the cache), or from the cache when the backend is unreachable.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int) async throws
        -> ConversationPage
    {
        do {
            let page = try await base.conversations(of: user, after: cursor, limit: limit)
            cache.store(page.conversations)
            return page
        } catch let error as DeliveryError where error.isRetryable {
            if let cached = cache.page(after: cursor, limit: limit) { return cached }
            throw error
        }
    }
}
