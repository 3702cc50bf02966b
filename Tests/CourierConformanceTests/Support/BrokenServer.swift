import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation

/// `courier-server`'s parts — the demo backend, its sessions and its router — on a socket of their own, answering
/// as a `ContractBreach` says: a backend that looks right at a glance and breaks one promise. Built only from the
/// server core's public types, so `ChatServer` itself carries no switch for misbehaving. No long polls (the kit
/// asks for none).
@MainActor
final class BrokenServer {
    let breach: ContractBreach
    let backend: InMemoryChatBackend
    private let sessions: SignInAuthority
    private let router: ChatRouter
    private let sockets: SocketServer
    private let directory: TemporaryDirectory

    /// The address to give the kit.
    var url: URL { URL(string: "http://127.0.0.1:\(sockets.port)") ?? URL(fileURLWithPath: "/") }

    init(_ breach: ContractBreach) throws {
        self.breach = breach
        directory = try TemporaryDirectory(prefix: "courier-broken")
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: ChatServer.demoSeed, now: ManualClock().now), journal: InMemoryBackendJournal())
        self.backend = backend
        sessions = try SignInAuthority(
            path: directory.path("sessions.log"), clock: SystemClock(), tokenLifetime: .seconds(3_600)
        ) { user, password in backend.user(user) != nil && password == ChatServer.demoPassword }
        let router = ChatRouter(backend: backend, sessions: sessions)
        self.router = router
        sockets = try SocketServer(port: 0) { request in
            DispatchQueue.main.sync {
                MainActor.assumeIsolated { breach.answer(request, router: router, backend: backend) }
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
