import CourierDomain
import CourierStore

/// A repository in front of the backend (`base`) that keeps what it loads in a cache and answers from the cache when
/// the backend cannot be reached (a retryable error: offline, timeout, server), so that what was seen online
/// survives going offline and relaunching. Other errors (sign-in, not found, validation) are never masked by cached
/// data. `CachingMessageRepository` and `CachingConversationRepository` are its two forms.
public final class CachingRepository<Base: Sendable, Cache: Sendable>: Sendable {
    let base: Base
    let cache: Cache

    /// Wraps `base`, keeping what it returns in `cache`.
    public init(wrapping base: Base, cache: Cache) {
        self.base = base
        self.cache = cache
    }

    /// The page `load` gets from the backend (a call of the wrapped repository, which throws `DeliveryError` alone),
    /// handed to `keep` first; or, when the backend cannot be reached, the page `cached` answers (the error when the
    /// cache cannot answer either).
    func page<Page>(
        _ load: () async throws -> Page, keep: (Page) -> Void, orCached cached: () -> Page?
    ) async throws(DeliveryError) -> Page {
        do {
            let page = try await load()
            keep(page)
            return page
        } catch {
            let error = DeliveryError(error)
            if error.isRetryable, let page = cached() { return page }
            throw error
        }
    }
}
