import CourierDomain
import CourierStore
import Foundation

/// A `UserDirectory` in front of a `UserRepository`: profiles live 5 minutes, presence 30 seconds (on the injected
/// clock), at most 100 users are kept and the least recently used one is dropped first.
///
/// Rendering a list of 50 conversations asks for 50 participants: cached ones cost nothing and the missing ones are
/// fetched in one batch call, so a re-render after an edit or a new message costs 0–1 backend reads instead of one
/// per row. Local edits (`update(_:)`, `invalidate(_:)`) keep the cache honest between expiries.
///
/// With a `storage`, what it fetches is kept on disk with when it was fetched (`UserCacheRecord`): a relaunch, offline
/// too, shows the names the device has seen, and their age still decides when they are asked for again.
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
    private let storage: (any RecordStorage)?
    private var recordCount = 0

    /// Creates a cache over `repository`, keeping at most `capacity` users — in memory only, or, with `storage`,
    /// on disk too: what an earlier launch kept is served again (a record that cannot be read is skipped and
    /// logged; storage that cannot be read at all starts the cache empty, logged).
    public init(
        repository: any UserRepository, clock: any Clock, capacity: Int = UserCache.defaultCapacity,
        storage: (any RecordStorage)? = nil, logger: Logger = .silent
    ) {
        self.repository = repository
        self.clock = clock
        self.logger = logger
        self.storage = storage
        entries = LRUCache(capacity: capacity)
        guard let storage else { return }
        do {
            for body in try storage.loadRecords() {
                recordCount += 1
                switch try? UserCacheRecord.decode(body) {
                case .profile(let user, let fetchedAt)?:
                    var entry = entries.peek(user.id) ?? Entry()
                    entry.user = user
                    entry.userFetchedAt = fetchedAt
                    entries.set(entry, for: user.id)
                case .presence(let presence, let fetchedAt)?:
                    var entry = entries.peek(presence.userID) ?? Entry()
                    entry.presence = presence
                    entry.presenceFetchedAt = fetchedAt
                    entries.set(entry, for: presence.userID)
                case nil:
                    logger.log(.warning, "user cache: skipped a record that cannot be read")
                }
            }
        } catch {
            logger.log(.warning, "user cache: the kept profiles could not be read (\(error)); starting empty")
        }
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
        persist([UserCacheRecord.profile(user, fetchedAt: clock.now).encoded()])
        // A row may still show a name this cache has already evicted, so a local edit is always announced.
        if known == nil { observers.notify(user) }
    }

    /// Forgets everything held about `id`, so the next read fetches it.
    public func invalidate(_ id: UserID) {
        entries.removeValue(for: id)
    }

    /// Asks the repository for `id`'s profile past what is held and serves it as `update(_:)` does; when the
    /// repository cannot answer, forgets `id`, so the next read asks.
    public func reload(_ id: UserID) async {
        if let answer = try? await repository.users([id]).first(where: { $0.id == id }) {
            update(answer)
        } else {
            invalidate(id)
        }
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
            var records: [Data] = []
            for (id, answer) in fetched where asked.contains(id) {
                found[id] = answer
                keep(answer, fetchedAt)
                if let record = Self.record(of: answer, at: fetchedAt) { records.append(record.encoded()) }
            }
            persist(records)
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

    private static func record<Value>(of value: Value, at date: Date) -> UserCacheRecord? {
        switch value {
        case let user as User: .profile(user, fetchedAt: date)
        case let presence as Presence: .presence(presence, fetchedAt: date)
        default: nil
        }
    }

    /// Appends `records` (one synced append); a failure is logged and the cache goes on from memory. When superseded
    /// records outnumber what is held, the log is compacted to one record per profile and presence held.
    private func persist(_ records: [Data]) {
        guard let storage, !records.isEmpty else { return }
        do {
            try storage.append(records)
            recordCount += records.count
        } catch {
            logger.log(.warning, "user cache: could not keep \(records.count) records (\(error))")
            return
        }
        guard recordCount > 4 * max(entries.count, 1) + 64 else { return }
        var live: [Data] = []
        // Least recently used first: replayed in this order, the order of use survives the compaction.
        for id in entries.keysLeastRecentFirst {
            guard let entry = entries.peek(id) else { continue }
            if let user = entry.user, let at = entry.userFetchedAt {
                live.append(UserCacheRecord.profile(user, fetchedAt: at).encoded())
            }
            if let presence = entry.presence, let at = entry.presenceFetchedAt {
                live.append(UserCacheRecord.presence(presence, fetchedAt: at).encoded())
            }
        }
        do {
            try storage.compact(keeping: live)
            recordCount = live.count
        } catch {
            logger.log(.warning, "user cache: compaction failed (\(error)); the log keeps growing")
        }
    }

    private func unique(_ ids: [UserID]) -> [UserID] {
        var seen = Set<UserID>()
        return ids.filter { seen.insert($0).inserted }
    }
}
