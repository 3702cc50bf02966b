import CourierTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real Synapse homeserver on 127.0.0.1 for the Matrix tests, installed and run by `Tests/Synapse/synapse`.
///
/// `shared()` is one server per test process, started on first use (3–8 s) and used by every test that only talks
/// to it: such a test isolates itself by registering users of its own (`peer(_:)`) and creating its own rooms. A
/// test that kills, restarts or edits its server takes a `dedicated()` one, stopped when the test ends (its suite
/// runs `.serialized` and `.removesTemporaryDirectories`). Either runs with `--parent` set to this process, so a
/// crashed or killed test run leaves no server behind.
final class SynapseServer: Sendable {
    /// Where the server answers, `http://127.0.0.1:PORT`.
    let baseURL: URL
    /// Its port, kept across restarts.
    let port: Int
    /// Its data directory: configuration, SQLite database, logs.
    private let directory: TemporaryDirectory

    /// Started outside any test's task, so its data directory belongs to the process's temporary folder rather
    /// than to the test that happened to ask first.
    private static let sharedStart = Task.detached { try await SynapseServer(prefix: "synapse-shared") }

    /// The server every test of the process shares, started on first use.
    static func shared() async throws -> SynapseServer { try await sharedStart.value }

    /// A server of the calling test's own, for what would disturb the others (kill, restart, forgetting
    /// transaction ids); stopped and removed when the test ends.
    static func dedicated() async throws -> SynapseServer {
        let server = try await SynapseServer(prefix: "synapse-dedicated")
        TemporaryDirectory.closeWhenTestEnds {
            try? await server.stop()
            SynapseScript.noteStopped(server.directory.url)
        }
        return server
    }

    /// Installs Synapse if this machine has not yet (a minute, once), then starts one on a free port over a new
    /// data directory.
    private init(prefix: String) async throws {
        directory = try TemporaryDirectory(prefix: prefix)
        _ = try await SynapseScript.run(["install"], loggingIn: directory.url)
        SynapseScript.noteStarted(directory.url)
        let printed = try await Self.start(directory.url, port: 0)
        guard let url = URL(string: printed), let port = url.port else {
            throw SynapseScriptError(arguments: ["start"], status: 0, errors: "no URL in its answer: \(printed)")
        }
        baseURL = url
        self.port = port
    }

    // MARK: - Users

    /// Registers `localpart` with `password` (`m.login.dummy`: the test server asks no verification); its first
    /// device signed in.
    func register(_ localpart: String, password: String) async throws -> MatrixAccount {
        let body: [String: Any] = [
            "username": localpart, "password": password, "auth": ["type": "m.login.dummy"],
        ]
        let answer = try await MatrixHTTP.send(
            "POST", MatrixHTTP.url(baseURL, ["_matrix", "client", "v3", "register"]), body: body)
        guard let account = MatrixAccount(answer: answer, password: password) else {
            throw MatrixHTTPError(request: "POST /register", status: 200, errcode: nil, body: "\(answer)")
        }
        return account
    }

    /// A client for a new user of its own, `name-` and 8 random hex digits (so tests sharing the server never
    /// meet), password `courier`.
    func peer(_ name: String) async throws -> MatrixPeer {
        let localpart = "\(name)-\(UUID().uuidString.prefix(8).lowercased())"
        return MatrixPeer(baseURL: baseURL, account: try await register(localpart, password: "courier"))
    }

    // MARK: - Crashes and restarts

    /// Kills the server with SIGKILL, as a crash would: whatever it had not written is lost.
    func kill() async throws {
        _ = try await SynapseScript.run(["kill", directory.url.path], loggingIn: directory.url)
    }

    /// Stops the server (SIGTERM, SIGKILL if it hangs) if it runs, and starts it again on the same data and port,
    /// waiting until it answers. Tokens, rooms and events stay; what it held only in memory goes.
    func restart() async throws {
        try await stop()
        _ = try await Self.start(directory.url, port: port)
    }

    /// Makes the server forget every transaction id, as when its 24-hour window has closed: it is stopped, the
    /// `event_txn_id_device_id` table emptied, and it is started again (its in-memory cache goes with the process).
    func forgetTransactionIDs() async throws {
        try await stop()
        _ = try await SynapseScript.run(
            ["sql", directory.url.path, "DELETE FROM event_txn_id_device_id"], loggingIn: directory.url)
        _ = try await Self.start(directory.url, port: port)
    }

    /// Stops the server: SIGTERM, then SIGKILL if it has not ended in 30 s.
    func stop() async throws {
        _ = try await SynapseScript.run(["stop", directory.url.path], loggingIn: directory.url)
    }

    /// Starts a server on `data` (its URL), stopped by the script's watchdog when this process ends.
    private static func start(_ data: URL, port: Int) async throws -> String {
        try await SynapseScript.run(
            ["start", data.path, String(port), "--parent", String(getpid())], loggingIn: data)
    }
}
