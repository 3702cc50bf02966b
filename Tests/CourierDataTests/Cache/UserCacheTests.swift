import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

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
        let backend = FakeUserRepository.numbered(50)
        let rows = ids(1...50)
        for id in rows { _ = try? await backend.users([id]) }
        let uncachedReads = backend.profileCalls.count
        #expect(uncachedReads == 50)

        // Given a cache warmed by the list's first render (one batch for the page)
        let cache = UserCache(repository: backend, clock: clock)
        let baseline = backend.profileCalls.count
        _ = await cache.users(rows)
        #expect(backend.profileCalls.count - baseline == 1)

        // When a display name is edited locally and the list re-renders row by row
        var afterEdit = backend.profileCalls.count
        cache.update(User(id: "u7", displayName: "Renamed"))
        let titles = await renderRowByRow(rows, with: cache)
        afterEdit = backend.profileCalls.count - afterEdit

        // And a new message arrives a minute later and the list re-renders again
        await clock.advance(by: .seconds(60))
        var afterMessage = backend.profileCalls.count
        _ = await renderRowByRow(rows, with: cache)
        afterMessage = backend.profileCalls.count - afterMessage

        // And one profile is invalidated (changed elsewhere) before another render
        cache.invalidate("u9")
        var afterInvalidate = backend.profileCalls.count
        _ = await renderRowByRow(rows, with: cache)
        afterInvalidate = backend.profileCalls.count - afterInvalidate

        // Then each re-render cost 0–1 reads instead of 50: at least 90 % fewer
        #expect(titles[6] == "Renamed")
        #expect(afterEdit == 0)
        #expect(afterMessage == 0)
        #expect(afterInvalidate == 1)
        #expect(Double(afterEdit + afterMessage + afterInvalidate) <= 0.1 * Double(3 * uncachedReads))
    }

    @Test func profilesLiveFiveMinutes() async {
        // Given a profile read now
        let backend = FakeUserRepository.numbered(3)
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
        #expect(backend.profileCalls.count == 2)
    }

    @Test func presenceLivesThirtySecondsApartFromTheProfile() async {
        // Given a user whose profile and presence were read
        let backend = FakeUserRepository.numbered(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1"])
        _ = await cache.presence(["u1"])

        // When 29 s, then 30 s pass
        await clock.advance(by: .seconds(29))
        _ = await cache.presence(["u1"])
        _ = await cache.users(["u1"])
        #expect(backend.presenceCalls.count == 1)
        await clock.advance(by: .seconds(1))
        let presence = await cache.presence(["u1"])
        _ = await cache.users(["u1"])

        // Then presence is read again at 30 s; the profile is still fresh
        #expect(presence["u1"]?.isOnline == true)
        #expect(backend.presenceCalls.count == 2)
        #expect(backend.profileCalls.count == 1)
    }

    @Test func atMostOneHundredUsersAreKeptAndTheLeastRecentlyUsedGoesFirst() async {
        // Given 100 cached users, u1 read again after the others
        let backend = FakeUserRepository.numbered(150)
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
        let reads = backend.profileCalls.count
        _ = await cache.users(["u1", "u52", "u150"])
        #expect(backend.profileCalls.count == reads)
    }

    @Test func onlyTheMissingIdsAreFetchedInOneCall() async {
        // Given two cached users
        let backend = FakeUserRepository.numbered(5)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1", "u2"])

        // When five are asked for, one twice, plus an unknown id
        let found = await cache.users(["u1", "u3", "u2", "u4", "u3", "nobody"])

        // Then one call asked for the missing ones only; the unknown id is left out
        #expect(backend.profileCalls.last == ["u3", "u4", "nobody"])
        #expect(backend.profileCalls.count == 2)
        #expect(found.keys.sorted() == ["u1", "u2", "u3", "u4"])
    }

    @Test func observersHearOfEditsAndOfNewNamesFromTheBackend() async {
        // Given an observed cache holding u1 and u2
        let backend = FakeUserRepository.numbered(3)
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
        let backend = FakeUserRepository.numbered(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1"])
        await clock.advance(by: .seconds(360))
        backend.fail(with: .offline)

        // When it is asked for again, with an id never seen
        let found = await cache.users(["u1", "u2"])

        // Then the stale profile is shown rather than nothing
        #expect(found == ["u1": User(id: "u1", displayName: "User 1")])
    }
}
