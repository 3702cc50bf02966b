import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier-server`'s core: the demo backend, durable in its own data directory, served over HTTP on 127.0.0.1.
///
/// The backend starts from the demo data the `courier` driver seeds a fresh directory with (seed 1, the virtual
/// clock's epoch) and replays its journal (`backend.log`) on top, so every accepted write survives a restart or a
/// SIGKILL: the write is journaled (synced) before its answer is sent. The directory is locked, so two servers never
/// share it. Requests are parsed on connection threads and applied one at a time on the main actor.
@MainActor
public final class ChatServer {
    /// The demo data's seed.
    public static let demoSeed: UInt64 = 1

    /// The backend served.
    public let backend: InMemoryChatBackend
    /// The port it listens on.
    public var port: UInt16 { sockets.port }
    /// The address to give clients.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Connections being served now.
    public var openConnections: Int { sockets.openConnections }

    private let sockets: SocketServer
    private let journal: RecordLogBackendJournal
    private let lock: DataDirectoryLock

    /// Opens `directory` (creating it) and binds 127.0.0.1:`port` (0: a free one). Throws `StoreError.locked` when
    /// another process holds the directory, `SocketError` when the port cannot be bound.
    public init(directory: URL, port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(), logger: Logger = .silent) throws {
        let fileSystem = PosixFileSystem()
        try fileSystem.createDirectory(directory.path)
        lock = try DataDirectoryLock.acquire(directory: directory, fileSystem: fileSystem)
        do {
            journal = try RecordLogBackendJournal(
                path: directory.appendingPathComponent("backend.log").path, fileSystem: fileSystem, logger: logger)
            backend = try InMemoryChatBackend(
                seed: DemoData.make(seed: Self.demoSeed, now: ManualClock().now), journal: journal)
            let router = ChatRouter(backend: backend)
            sockets = try SocketServer(port: port, limits: limits) { request in
                Self.onMainActor { router.respond(to: request) }
            }
        } catch {
            lock.release()
            throw error
        }
        sockets.start()
    }

    /// Stops serving and releases the directory.
    public func stop() {
        sockets.stop()
        journal.close()
        lock.release()
    }

    /// Runs `work` on the main actor and waits for it from a connection thread (the main queue must be running).
    nonisolated private static func onMainActor(_ work: @escaping @MainActor () -> HTTPResponse) -> HTTPResponse {
        DispatchQueue.main.sync { MainActor.assumeIsolated { work() } }
    }
}
