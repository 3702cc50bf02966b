import CourierData
import CourierDomain
import CourierHTTP
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The HTTP client's sign-in against a real server: it signs in by itself, keeps its token in a `0600` file, stops
/// at an expiry until the app signs in again, replaces a kept token the server no longer knows, and signs out.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) final class HTTPSignInTests {
    let fixture: ServerFixture
    let tokens: FileTokenStore

    init() throws {
        fixture = try ServerFixture()
        tokens = FileTokenStore(path: fixture.directory.url.appendingPathComponent("client/token").path)
    }

    deinit { MainActor.assumeIsolated { fixture.tearDown() } }

    private func client(password: String? = ChatServer.demoPassword) -> HTTPChatClient {
        // A generous bound: a loaded test machine must not make a slow answer read as a silent server.
        HTTPChatClient(
            baseURL: fixture.server.url, user: "me", password: password, tokens: tokens, timeout: .seconds(120))
    }

    @Test func theClientSignsInByItselfAndKeepsTheTokenForTheNextLaunch() async throws {
        // When a client with a password makes its first request
        let first = client()
        _ = try await first.users(["me"])

        // Then it signed in once and kept the token, and the next launch uses it without signing in again
        let kept = try #require(try tokens.load())
        #expect(kept.user == "me" && fixture.server.sessions.user(presenting: kept.token) == "me")
        #expect(fixture.server.sessions.liveSessions == 1)
        _ = try await client(password: nil).users(["me"])
        #expect(fixture.server.sessions.liveSessions == 1)
    }

    @Test func anExpiredTokenPausesUntilTheAppSignsInAgain() async throws {
        // Given a signed-in client whose token the server then lets expire
        let client = client()
        _ = try await client.users(["me"])
        try await client.expireSignIn()

        // When it asks again, twice
        await #expect(throws: DeliveryError.unauthorized) { try await client.users(["me"]) }
        await #expect(throws: DeliveryError.unauthorized) { try await client.users(["me"]) }

        // Then it did not sign in by itself; once the app signs in, requests go through with the new token
        #expect(fixture.server.sessions.liveSessions == 0)
        let renewed = try await client.signIn()
        #expect(try await client.users(["me"]).map(\.id) == ["me"])
        #expect(try tokens.load() == renewed)
    }

    @Test func aKeptTokenTheServerNeverKnewIsReplacedOnceAtLaunch() async throws {
        // Given a kept token from another server (or one whose data was reset)
        try tokens.save(SignInToken(user: "me", token: String(repeating: "0", count: 64), expiresAt: .distantFuture))

        // When the client's first request is refused with it
        let users = try await client().users(["me"])

        // Then the client signed in anew and the request went through
        #expect(users.map(\.id) == ["me"])
        #expect(try tokens.load()?.token != String(repeating: "0", count: 64))
        #expect(fixture.server.sessions.liveSessions == 1)
    }

    @Test func aWrongPasswordIsUnauthorizedAndSignOutRevokesAndForgets() async throws {
        // A wrong password: nothing is granted
        await #expect(throws: DeliveryError.unauthorized) { try await self.client(password: "nope").users(["me"]) }
        #expect(try tokens.load() == nil)

        // Sign-out: the server refuses the token afterwards and the file is gone
        let client = client()
        _ = try await client.users(["me"])
        let token = try #require(try tokens.load()).token
        try await client.signOut()
        #expect(fixture.server.sessions.user(presenting: token) == nil)
        #expect(try tokens.load() == nil)
    }
}
