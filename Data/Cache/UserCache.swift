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
        await fetch(
            ids, \.user, fetchedAt: \.userFetchedAt, lifetime: Self.profileLifetime, named: "profiles",
            load: { [repository] in try await repository.users($0).map { ($0.id, $0) } },
            keep: { user, fetchedAt in store(user, at: fetchedAt) })
    }

    /// Whether these users are online: fresh answers from memory, the rest in one `UserRepository.presence` call.
    /// When the call fails, expired answers still held are served and the failure is logged.
    public func presence(_ ids: [UserID]) async -> [UserID: Presence] {
        await fetch(
            ids, \.presence, fetchedAt: \.presenceFetchedAt, lifetime: Self.presenceLifetime, named: "presences",
            load: { [repository] in try await repository.presence($0).map { ($0.userID, $0) } },
            keep: { presence, fetchedAt in
                var entry = entries.peek(presence.userID) ?? Entry()
                entry.presence = presence
                entry.presenceFetchedAt = fetchedAt
                entries.set(entry, for: presence.userID)
            })
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

    /// The `value`s of `ids`: those fetched less than `lifetime` ago from memory (each a use), the rest in one
    /// `load` call whose answers go to `keep`; when it fails, the expired values still held, and a logged warning.
    private func fetch<Value>(
        _ ids: [UserID], _ value: KeyPath<Entry, Value?>, fetchedAt: KeyPath<Entry, Date?>, lifetime: Duration,
        named name: String, load: ([UserID]) async throws -> [(UserID, Value)], keep: (Value, Date) -> Void
    ) async -> [UserID: Value] {
        let now = clock.now
        let lifetime = lifetime.timeInterval
        var found: [UserID: Value] = [:]
        var missing: [UserID] = []
        for id in unique(ids) {
            let entry = entries.value(for: id)
            if let held = entry?[keyPath: value], let at = entry?[keyPath: fetchedAt],
                now.timeIntervalSince(at) < lifetime
            {
                found[id] = held
            } else {
                missing.append(id)
            }
        }
        guard !missing.isEmpty else { return found }
        do {
            let fetched = try await load(missing)
            let fetchedAt = clock.now
            let asked = Set(missing)
            for (id, answer) in fetched where asked.contains(id) {
                found[id] = answer
                keep(answer, fetchedAt)
            }
        } catch {
            logger.log(.warning, "user cache: fetching \(missing.count) \(name) failed (\(error)); serving stale ones")
            for id in missing { if let held = entries.peek(id)?[keyPath: value] { found[id] = held } }
        }
        return found
    }

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
