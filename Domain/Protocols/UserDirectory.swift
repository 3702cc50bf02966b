/// Where view models read user profiles and presence: a cache in front of `UserRepository`, so re-rendering a
/// screen does not cost one backend read per row. Lives on the main actor with the view models that read it.
@MainActor
public protocol UserDirectory: AnyObject {
    /// The profiles of these users, by id: fresh ones from memory, the rest fetched in one backend call. When that
    /// call fails, expired profiles still held are served; ids known nowhere are left out.
    func users(_ ids: [UserID]) async -> [UserID: User]
    /// Whether these users are online, by id; same caching and fallback rules as `users(_:)`, with a shorter life.
    func presence(_ ids: [UserID]) async -> [UserID: Presence]
    /// Calls `observer` with every profile whose shown data changed (a local edit, or a fetch that found a new
    /// name), until the token is released.
    func observe(_ observer: @escaping @MainActor (User) -> Void) -> ObservationToken
    /// The profile of `id` as the directory holds it now, fresh or not, read at once without asking the backend:
    /// what a screen shows before the backend answers (nil when it holds none).
    func cachedUser(_ id: UserID) -> User?
}

extension UserDirectory {
    /// A directory that keeps nothing at hand answers nil: a screen shows ids until `users(_:)` answers.
    public func cachedUser(_ id: UserID) -> User? { nil }
}
