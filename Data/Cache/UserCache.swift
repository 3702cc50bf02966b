import CourierDomain
import Foundation

/// A `UserDirectory` in front of a `UserRepository`: profiles live 5 minutes, presence 30 seconds (on the injected
/// clock), at most 100 users are kept and the least recently used one is dropped first.
///
/// Rendering a list of 50 conversations asks for 50 participants: cached ones cost nothing and the missing ones are
/// fetched in one batch call, so a re-render after an edit or a new message costs 0–1 backend reads instead of one
/// per row. Local edits (`update(_:)`, `invalidate(_:)`) keep the cache honest between expiries.
@MainActor
public final class UserCache: UserDirectory {
    private struct Entry {
        var user: User?
        var userFetchedAt: Date?
        var presence: Presence?
        var presenceFetchedAt: Date?
    }

    // MARK: - Configuration

    /// How long a fetched profile is served without asking the backend again.
    public static let profileLifetime: Duration = .seconds(5 * 60)
    /// How long a fetched presence is served without asking the backend again.
    public static let presenceLifetime: Duration = .seconds(30)
    /// How many users are kept by default.
    public static let defaultCapacity = 100

    private let repository: any UserRepository
    private let clock: any Clock
    private let logger: Logger
    private var entries: LRUCache<UserID, Entry>
    private let observers = ObserverList<User>()

    /// Creates an empty cache over `repository`, keeping at most `capacity` users.
    public init(
        repository: any UserRepository, clock: any Clock, capacity: Int = UserCache.defaultCapacity,
        logger: Logger = .silent
    ) {
        self.repository = repository
        self.clock = clock
        self.logger = logger
        entries = LRUCache(capacity: capacity)
    }

    /// How many users are held.
    public var count: Int { entries.count }

    /// The held profile of `id`, fresh or not, without touching the order of use or the backend.
    public func cachedUser(_ id: UserID) -> User? { entries.peek(id)?.user }

    // MARK: - UserDirectory

    /// The profiles of these users: fresh ones from memory, the rest in one `UserRepository.users` call. When the
    /// call fails, expired profiles still held are served and the failure is logged.
    public func users(_ ids: [UserID]) async -> [UserID: User] {
        let now = clock.now
        let lifetime = Self.profileLifetime.timeInterval
        var found: [UserID: User] = [:]
        var missing: [UserID] = []
        for id in unique(ids) {
            let entry = entries.value(for: id)
            if let user = entry?.user, let at = entry?.userFetchedAt, now.timeIntervalSince(at) < lifetime {
                found[id] = user
            } else {
                missing.append(id)
            }
        }
        guard !missing.isEmpty else { return found }
        do {
            let fetched = try await repository.users(missing)
            let fetchedAt = clock.now
            let asked = Set(missing)
            for user in fetched where asked.contains(user.id) {
                found[user.id] = user
                store(user, at: fetchedAt)
            }
        } catch {
            logger.log(.warning, "user cache: fetching \(missing.count) profiles failed (\(error)); serving stale ones")
            for id in missing { if let user = entries.peek(id)?.user { found[id] = user } }
        }
        return found
    }

    /// Whether these users are online: fresh answers from memory, the rest in one `UserRepository.presence` call.
    /// When the call fails, expired answers still held are served and the failure is logged.
    public func presence(_ ids: [UserID]) async -> [UserID: Presence] {
        let now = clock.now
        let lifetime = Self.presenceLifetime.timeInterval
        var found: [UserID: Presence] = [:]
        var missing: [UserID] = []
        for id in unique(ids) {
            let entry = entries.value(for: id)
            if let presence = entry?.presence, let at = entry?.presenceFetchedAt, now.timeIntervalSince(at) < lifetime {
                found[id] = presence
            } else {
                missing.append(id)
            }
        }
        guard !missing.isEmpty else { return found }
        do {
            let fetched = try await repository.presence(missing)
            let fetchedAt = clock.now
            let asked = Set(missing)
            for presence in fetched where asked.contains(presence.userID) {
                found[presence.userID] = presence
                var entry = entries.peek(presence.userID) ?? Entry()
                entry.presence = presence
                entry.presenceFetchedAt = fetchedAt
                entries.set(entry, for: presence.userID)
            }
        } catch {
            logger.log(
                .warning, "user cache: fetching \(missing.count) presences failed (\(error)); serving stale ones")
            for id in missing { if let presence = entries.peek(id)?.presence { found[id] = presence } }
        }
        return found
    }

    /// Calls `observer` with every profile whose data changed (a local edit, or a fetch that found new data).
    public func observe(_ observer: @escaping @MainActor (User) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    // MARK: - Local edits

    /// A profile changed on this device (the display-name edit): serve it as fresh from now on and tell observers.
    public func update(_ user: User) {
        let known = entries.peek(user.id)?.user
        store(user, at: clock.now)
        // A row may still show a name this cache has already evicted, so a local edit is always announced.
        if known == nil { observers.notify(user) }
    }

    /// Forgets everything held about `id`, so the next read fetches it.
    public func invalidate(_ id: UserID) {
        entries.removeValue(for: id)
    }

    // MARK: - Private

    private func store(_ user: User, at date: Date) {
        var entry = entries.peek(user.id) ?? Entry()
        let changed = entry.user != nil && entry.user != user
        entry.user = user
        entry.userFetchedAt = date
        entries.set(entry, for: user.id)
        if changed { observers.notify(user) }
    }

    private func unique(_ ids: [UserID]) -> [UserID] {
        var seen = Set<UserID>()
        return ids.filter { seen.insert($0).inserted }
    }
}
