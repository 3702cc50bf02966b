import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// `reload(_:)`, the profile screen's rollback: the backend's profile past a fresh one held, or, when the backend
/// cannot answer, nothing held, so the next read asks.
@MainActor
@Suite struct UserCacheReloadTests {
    let clock = ManualClock()

    @Test func aReloadShowsTheBackendsNamePastAFreshEditAndAnnouncesIt() async {
        // Given a cache showing a local edit the backend never took, still fresh
        let backend = FakeUserRepository.numbered(3)
        let cache = UserCache(repository: backend, clock: clock)
        _ = await cache.users(["u1"])
        cache.update(User(id: "u1", displayName: "Optimistic"))
        var heard: [String] = []
        let token = cache.observe { heard.append($0.displayName) }

        // When the profile is reloaded
        await cache.reload("u1")

        // Then the backend was asked once more, and its name is shown and announced
        #expect(backend.profileCalls == [["u1"], ["u1"]])
        #expect(await cache.users(["u1"])["u1"]?.displayName == "User 1")
        #expect(heard == ["User 1"])
        token.cancel()
    }

    @Test func aReloadTheBackendCannotAnswerForgetsTheUserSoTheNextReadAsks() async {
        // Given a cache showing a local edit, and a backend that cannot answer
        let backend = FakeUserRepository.numbered(3)
        let cache = UserCache(repository: backend, clock: clock)
        cache.update(User(id: "u1", displayName: "Optimistic"))
        backend.fail(with: .offline)

        // When the profile is reloaded, and read again once the backend answers
        await cache.reload("u1")
        let whileOffline = await cache.users(["u1"])
        backend.fail(with: nil)
        let afterwards = await cache.users(["u1"])

        // Then the edit is no longer shown, and the next read asked the backend
        #expect(whileOffline.isEmpty)
        #expect(afterwards["u1"]?.displayName == "User 1")
        #expect(backend.profileCalls == [["u1"], ["u1"], ["u1"]])
    }
}
