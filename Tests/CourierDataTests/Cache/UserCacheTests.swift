import CourierData
import CourierDomain
import Foundation
import Testing

/// A backend of users that counts its reads and can be switched off or given new names.
private final class CountingUsers: UserRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var table: [UserID: User]
    private var failing = false
    private(set) var profileCalls: [[UserID]] = []
    private(set) var presenceCalls: [[UserID]] = []

    init(_ count: Int) {
        let users = (1...count).map { User(id: UserID("u\($0)"), displayName: "User \($0)") }
        table = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
    }

    var profileReads: Int { lock.withLock { profileCalls.count } }
    var presenceReads: Int { lock.withLock { presenceCalls.count } }
    func rename(_ id: UserID, to name: String) { lock.withLock { table[id]?.displayName = name } }
    func fail(_ value: Bool) { lock.withLock { failing = value } }

    func users(_ ids: [UserID]) async throws -> [User] {
        try lock.withLock {
            profileCalls.append(ids)
            if failing { throw DeliveryError.offline }
            return ids.compactMap { table[$0] }
        }
    }

    func presence(_ ids: [UserID]) async throws -> [Presence] {
        try lock.withLock {
            presenceCalls.append(ids)
            if failing { throw DeliveryError.offline }
            return ids.map { Presence(userID: $0, isOnline: true) }
        }
    }
}

@MainActor
@Suite struct UserCacheTests {
    let clock = ManualClock()

    private func ids(_ range: ClosedRange<Int>) -> [UserID] { range.map { UserID("u\($0)") } }

    /// Renders a conversation list the way a naive screen does: one lookup per row.
    private func renderRowByRow(_ rows: [UserID], with cache: UserCache) async -> [String] {
        var titles: [String] = []
        for id in rows { titles.append(await cache.users([id])[id]?.displayName ?? "?") }
        return titles
    }

    @Test func reRenderingFiftyRowsAfterAnEditOrANewMessageCostsAtMostOneFetch() async {
        // Given a list of 50 conversations: without a cache, each render reads every row's profile
        let backend = CountingUsers(50)
        let rows = ids(1...50)
        for id in rows { _ = try? await backend.users([id]) }
        let uncachedReads = backend.profileReads
        #expect(uncachedReads == 50)

        // Given a cache warmed by the list's first render (one batch for the page)
        let cache = UserCache(repository: backend, clock: clock)
        let baseline = backend.profileReads
        _ = await cache.users(rows)
        #expect(backend.profileReads - baseline == 1)

        // When a display name is edited locally and the list re-renders row by row
        var afterEdit = backend.profileReads
        cache.update(User(id: "u7", displayName: "Renamed"))
        let titles = await renderRowByRow(rows, with: cache)
        afterEdit = backend.profileReads - afterEdit

        // And a new message arrives a minute later and the list re-renders again
        await clock.advance(by: .seconds(60))
        var afterMessage = backend.profileReads
        _ = await renderRowByRow(rows, with: cache)
        afterMessage = backend.profileReads - afterMessage

        // And one profile is invalidated (changed elsewhere) before another render
        cache.invalidate("u9")
        var afterInvalidate = backend.profileReads
        _ = await renderRowByRow(rows, with: cache)
        afterInvalidate = backend.profileReads - afterInvalidate

        // Then each re-render cost 0–1 reads instead of 50: at least 90 % fewer
        #expect(titles[6] == "Renamed")
        #expect(afterEdit == 0)
        #expect(afterMessage == 0)
        #expect(afterInvalidate == 1)
        #expect(Double(afterEdit + afterMessage + afterInvalidate) <= 0.1 * Double(3 * uncachedReads))
    }

    @Test func profilesLiveFiveMinutes() async {
        // Given a profile read now
        let backend = CountingUsers(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1"])

        // When it is renamed at the backend and read again just before and at five minutes
        backend.rename("u1", to: "Ana")
        await clock.advance(by: .seconds(299))
        let before = await cache.users(["u1"])["u1"]?.displayName
        await clock.advance(by: .seconds(1))
        let after = await cache.users(["u1"])["u1"]?.displayName

        // Then the change appears within five minutes, after one more read
        #expect(before == "User 1")
        #expect(after == "Ana")
        #expect(backend.profileReads == 2)
    }

    @Test func presenceLivesThirtySecondsApartFromTheProfile() async {
        // Given a user whose profile and presence were read
        let backend = CountingUsers(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1"])
        _ = await cache.presence(["u1"])

        // When 29 s, then 30 s pass
        await clock.advance(by: .seconds(29))
        _ = await cache.presence(["u1"])
        _ = await cache.users(["u1"])
        #expect(backend.presenceReads == 1)
        await clock.advance(by: .seconds(1))
        let presence = await cache.presence(["u1"])
        _ = await cache.users(["u1"])

        // Then presence is read again at 30 s; the profile is still fresh
        #expect(presence["u1"]?.isOnline == true)
        #expect(backend.presenceReads == 2)
        #expect(backend.profileReads == 1)
    }

    @Test func atMostOneHundredUsersAreKeptAndTheLeastRecentlyUsedGoesFirst() async {
        // Given 100 cached users, u1 read again after the others
        let backend = CountingUsers(150)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(ids(1...100))
        _ = await cache.users(["u1"])

        // When 50 more are read
        _ = await cache.users(ids(101...150))

        // Then 100 are kept: u1 (recently used) stayed, u2…u51 (least recently used) were dropped
        #expect(cache.count == 100)
        #expect(cache.cachedUser("u1") != nil)
        #expect(cache.cachedUser("u2") == nil)
        #expect(cache.cachedUser("u51") == nil)
        #expect(cache.cachedUser("u52") != nil)
        let reads = backend.profileReads
        _ = await cache.users(["u1", "u52", "u150"])
        #expect(backend.profileReads == reads)
    }

    @Test func onlyTheMissingIdsAreFetchedInOneCall() async {
        // Given two cached users
        let backend = CountingUsers(5)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1", "u2"])

        // When five are asked for, one twice, plus an unknown id
        let found = await cache.users(["u1", "u3", "u2", "u4", "u3", "nobody"])

        // Then one call asked for the missing ones only; the unknown id is left out
        #expect(backend.profileCalls.last == ["u3", "u4", "nobody"])
        #expect(backend.profileReads == 2)
        #expect(found.keys.sorted() == ["u1", "u2", "u3", "u4"])
    }

    @Test func observersHearOfEditsAndOfNewNamesFromTheBackend() async {
        // Given an observed cache holding u1 and u2
        let backend = CountingUsers(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1", "u2"])
        var heard: [String] = []
        let token = cache.observe { heard.append($0.displayName) }

        // When u1 is edited locally, u2 is renamed at the backend, and both expire and are read again
        cache.update(User(id: "u1", displayName: "Ana"))
        backend.rename("u2", to: "Ben")
        backend.rename("u1", to: "Ana")
        await clock.advance(by: .seconds(300))
        _ = await cache.users(["u1", "u2"])

        // Then each change was heard once; the unchanged refetch of u1 was not
        #expect(heard == ["Ana", "Ben"])
        token.cancel()
    }

    @Test func anUnreachableBackendServesExpiredProfiles() async {
        // Given a profile read six minutes ago, and a backend now offline
        let backend = CountingUsers(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1"])
        await clock.advance(by: .seconds(360))
        backend.fail(true)

        // When it is asked for again, with an id never seen
        let found = await cache.users(["u1", "u2"])

        // Then the stale profile is shown rather than nothing
        #expect(found == ["u1": User(id: "u1", displayName: "User 1")])
    }
}
