import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation

/// `courier-server`'s parts — the demo backend, its sessions and its router — on a socket of their own, answering
/// as a `ContractBreach` says: a backend that looks right at a glance and breaks one promise. Built only from the
/// server core's public types, so `ChatServer` itself carries no switch for misbehaving. No long polls (the kit
/// asks for none). Without a breach it keeps every promise; `under` serves the contract below a path (`/api`), as a
/// backend behind a reverse proxy does, and answers 404 outside it.
@MainActor
final class BrokenServer {
    let breach: ContractBreach?
    /// The path the contract is served under ("" for the root).
    let prefix: String
    let backend: InMemoryChatBackend
    private let sessions: SignInAuthority
    private let router: ChatRouter
    private let sockets: SocketServer
    private let directory: TemporaryDirectory

    /// The address to give the kit.
    var url: URL { URL(string: "http://127.0.0.1:\(sockets.port)\(prefix)") ?? URL(fileURLWithPath: "/") }

    init(_ breach: ContractBreach?, under prefix: String = "") throws {
        self.breach = breach
        self.prefix = prefix
        directory = try TemporaryDirectory(prefix: "courier-broken")
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: ChatServer.demoSeed, now: ManualClock().now), journal: InMemoryBackendJournal())
        self.backend = backend
        sessions = try SignInAuthority(
            path: directory.path("sessions.log"), clock: SystemClock(), tokenLifetime: .seconds(3_600)
        ) { user, password in backend.user(user) != nil && password == ChatServer.demoPassword }
        let router = ChatRouter(backend: backend, sessions: sessions)
        self.router = router
        // As patient as `ConformanceKitTests.patient`: a loaded machine may send a body seconds after its head.
        sockets = try SocketServer(port: 0, limits: HTTPLimits(requestTimeout: .seconds(30))) { request in
            guard request.path.hasPrefix(prefix + "/") else { return HTTPResponse(status: 404) }
            var inside = request
            inside.path.removeFirst(prefix.count)
            return DispatchQueue.main.sync {
                MainActor.assumeIsolated {
                    breach?.answer(inside, router: router, backend: backend) ?? router.respond(to: inside)
                }
            }
        }
        sockets.start()
    }

    /// Stops serving and removes the directory.
    func stop() {
        sockets.stop()
        sessions.close()
        directory.remove()
    }
}
