import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// A simulated backend and a real, file-backed `CourierClient` over it, signed in as `me`, in a fresh temporary
/// directory, on a manual clock: every durable write of the client (caches, cursor, receipts) is a synced append,
/// as in an app, while the backend answers at once.
@MainActor
final class LiveFixture {
    /// How the client reaches the backend.
    enum Link {
        /// Straight to the backend, which answers at once (its `EventFeed` never holds a request).
        case direct
        /// Through the simulated network on the manual clock (wifi): a live request is held until the feed grows.
        case network
    }

    let directory: URL
    let clock = ManualClock()
    let backend: InMemoryChatBackend
    /// The simulated network, with `.network`.
    let network: NetworkConditioner?
    private let connectivity: ManualConnectivity?
    private let listens: Bool
    /// The client: reopened on the same directory by `reopen()`, as by a relaunch.
    private(set) var client: CourierClient
    /// The client's sync engine (nil when made without a feed).
    var engine: SyncEngine? { client.syncEngine }
    private var closed = false

    /// Builds the backend from `data(now)` and opens a client on it, online. With `listens`, the client has the
    /// backend's event feed and its sync engine starts at once.
    init(link: Link, listens: Bool = true, data: (Date) -> DemoData) throws {
        directory = try Bench.temporaryDirectory("live")
        let backend = try InMemoryChatBackend(seed: data(clock.now), journal: InMemoryBackendJournal())
        self.backend = backend
        self.listens = listens
        switch link {
        case .direct:
            connectivity = ManualConnectivity()
            network = nil
        case .network:
            network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 5))
            connectivity = nil
        }
        client = try Self.openClient(
            in: directory, backend: backend, network: network, connectivity: connectivity, clock: clock,
            listens: listens)
    }

    /// Closes the client and opens it again on the same directory, its stores replayed, as an app relaunched.
    func reopen() throws {
        client.close()
        client = try Self.openClient(
            in: directory, backend: backend, network: network, connectivity: connectivity, clock: clock,
            listens: listens)
    }

    private static func openClient(
        in directory: URL, backend: InMemoryChatBackend, network: NetworkConditioner?,
        connectivity: ManualConnectivity?, clock: ManualClock, listens: Bool
    ) throws -> CourierClient {
        let ids = IDGenerator.seeded(99)
        if let network {
            return try CourierClient(
                directory: directory, currentUser: LiveData.me, messages: network, conversations: network,
                users: network, connectivity: network, clock: clock, ids: ids, feed: listens ? network : nil)
        }
        return try CourierClient(
            directory: directory, currentUser: LiveData.me, messages: backend, conversations: backend, users: backend,
            connectivity: connectivity ?? ManualConnectivity(), clock: clock, ids: ids,
            feed: listens ? backend : nil)
    }

    isolated deinit { close() }

    /// Goes online or offline.
    func setOnline(_ online: Bool) {
        connectivity?.set(online: online)
        network?.setOnline(online)
    }

    /// Runs `operation` as tracked work on the clock and moves the clock until it has finished (a request over the
    /// simulated network sleeps on it); returns what it returned.
    func drive<Value: Sendable>(_ operation: @escaping @MainActor () async throws -> Value) async throws -> Value {
        let task = clock.task { () -> Result<Value, any Error> in
            do { return .success(try await operation()) } catch { return .failure(error) }
        }
        guard await clock.run(until: { task.work.isFinished }) else { throw BenchFailure("a request never finished") }
        return try await task.value.get()
    }

    /// Whether the client has applied every event the backend holds for it and nothing it started still runs.
    var isSettled: Bool {
        guard let engine, let cursor = engine.cursor else { return false }
        return cursor == backend.feedEndPosition(for: LiveData.me) && engine.receipts.count == 0 && !client.isBusy
    }

    /// Closes the client and removes the directory.
    func close() {
        guard !closed else { return }
        closed = true
        client.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
