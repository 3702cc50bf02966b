import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation

/// A `ChatRouter` over the demo backend with sessions journaled in a temporary directory, on a manual clock: signs
/// demo users in (password `courier`) and hands out their tokens.
@MainActor
final class RouterFixture {
    let backend: InMemoryChatBackend
    let sessions: SignInAuthority
    let router: ChatRouter
    let clock: ManualClock
    let directory: TemporaryDirectory
    private var tokens: [UserID: String] = [:]

    init(tokenLifetime: Duration = .seconds(3_600), limits: ContentLimits = ContentLimits(), devRoutes: Bool = true)
        throws
    {
        clock = ManualClock()
        directory = try TemporaryDirectory(prefix: "courier-router")
        backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: ManualClock().now), journal: InMemoryBackendJournal())
        sessions = try Self.authority(in: directory, clock: clock, lifetime: tokenLifetime, backend: backend)
        router = ChatRouter(backend: backend, sessions: sessions, limits: limits, devRoutes: devRoutes)
    }

    /// The sessions of a server in `directory`, demo passwords, on `clock`.
    static func authority(
        in directory: TemporaryDirectory, clock: ManualClock, lifetime: Duration, backend: InMemoryChatBackend
    ) throws -> SignInAuthority {
        try SignInAuthority(
            path: directory.url.appendingPathComponent("sessions.log").path, clock: clock, tokenLifetime: lifetime
        ) { user, password in backend.user(user) != nil && password == "courier" }
    }

    /// `user`'s token, signing them in the first time.
    func token(for user: UserID) -> String {
        if let token = tokens[user] { return token }
        guard case .granted(let token, _)? = try? sessions.signIn(user, password: "courier") else { return "" }
        tokens[user] = token
        return token
    }

    /// A request signed in as `user` (none when nil).
    func request(
        _ method: String, _ path: String, query: [(String, String)] = [], body: Data = Data(), as user: UserID? = "me"
    ) -> HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query,
            headers: user.map { [("authorization", "Bearer \(token(for: $0))")] } ?? [], body: Array(body))
    }

    /// The router's answer to a request signed in as `user` (none when nil).
    func respond(
        _ method: String, _ path: String, query: [(String, String)] = [], body: Data = Data(), as user: UserID? = "me"
    ) -> HTTPResponse {
        router.respond(to: request(method, path, query: query, body: body, as: user))
    }

    deinit { directory.remove() }
}
