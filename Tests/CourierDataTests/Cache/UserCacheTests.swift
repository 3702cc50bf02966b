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
        let backend = FakeUserRepository.numbered(3, online: ["u1"])
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

/// The names and presence a device has seen survive a relaunch, offline too, with their age: the TTL counts from
/// when they were fetched, not from the relaunch.
@MainActor
@Suite struct UserCachePersistenceTests {
    let clock = ManualClock()

    @Test func aRelaunchOfflineServesTheNamesSeenAndTheirAgeStillDecidesTheRefetch() async {
        // Given names and a presence fetched online and kept
        let storage = InMemoryRecordStorage()
        let backend = FakeUserRepository(
            [User(id: "ana", displayName: "Ana"), User(id: "ben", displayName: "Ben")], online: ["ana"])
        let first = UserCache(repository: backend, clock: clock, storage: storage)
        _ = await first.users(["ana", "ben"])
        _ = await first.presence(["ana"])
        first.update(User(id: "me", displayName: "Maria"))

        // When the app relaunches offline, four minutes later
        await clock.advance(by: .seconds(240))
        let offline = FakeUserRepository([])
        offline.fail(with: .offline)
        let relaunched = UserCache(repository: offline, clock: clock, storage: storage)
        let names = await relaunched.users(["ana", "ben", "me"])

        // Then the names come from disk without asking (still fresh), the local edit too
        #expect(names.mapValues(\.displayName) == ["ana": "Ana", "ben": "Ben", "me": "Maria"])
        #expect(offline.profileCalls.isEmpty)

        // And once their 5 minutes from the fetch are over, they are asked for again (and served stale meanwhile)
        await clock.advance(by: .seconds(61))
        let stale = await relaunched.users(["ana"])
        #expect(offline.profileCalls.count == 1)
        #expect(stale["ana"]?.displayName == "Ana")
        #expect(relaunched.cachedUser("ben")?.displayName == "Ben")
    }

    @Test func anUnreadableRecordIsSkippedAndTheLogIsCompactedWhenMostlySuperseded() async {
        // Given a kept log with a damaged record among good ones
        let good = UserCacheRecord.profile(User(id: "ana", displayName: "Ana"), fetchedAt: clock.now).encoded()
        let storage = InMemoryRecordStorage(records: [Data([9, 9, 9]), good])
        let backend = FakeUserRepository([User(id: "ana", displayName: "Ana")])
        let log = RecordingLogger()
        let cache = UserCache(repository: backend, clock: clock, storage: storage, logger: log.logger)
        #expect(cache.cachedUser("ana")?.displayName == "Ana")
        #expect(log.lines == ["warning: user cache: skipped a record that cannot be read"])

        // When one name is edited a hundred times
        for index in 0..<100 { cache.update(User(id: "ana", displayName: "Ana \(index)")) }

        // Then the log was compacted to what is held, and reopening it gives the last name
        #expect(storage.compactions >= 1)
        #expect(storage.records.count < 70)
        let reopened = UserCache(repository: backend, clock: clock, storage: storage)
        #expect(reopened.cachedUser("ana")?.displayName == "Ana 99")
    }
}
