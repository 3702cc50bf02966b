import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The app's own writes through the client's write queue stay queued across any number of server errors, as the
/// write queue's document says: retried at each sync until delivered, never dropped after a count of failures.
@MainActor
@Suite struct CourierClientWritesTests {
    @Test func aWriteOutlastsHalfAnHourOfServerErrorsAndGoesOnceTheServerRecovers() async throws {
        // Given a client whose one kind of write reaches a backend answering 503 to everything
        let clock = ManualClock()
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 7, now: clock.now), journal: InMemoryBackendJournal())
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 11))
        let delivered = Counter()
        let failing = Flag(true)
        let client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: backend.signedInUser, messages: network,
            conversations: network, users: network, connectivity: network, clock: clock, ids: .seeded(3),
            writeExecutors: [
                "name": { _ in
                    if failing.value { throw DeliveryError.server(code: 503) }
                    delivered.add()
                }
            ], fileSystem: SimulatedFileSystem())
        defer { client.close() }

        // When a write is queued and the backend fails for 30 minutes of syncs
        try client.writes.enqueue(kind: "name", key: "name", payload: "Ana B.")
        let syncing = clock.task { _ = await client.writes.syncWhenOnline() }
        await clock.advance(by: .seconds(1_800))
        let attempts = client.writes.allWrites.first?.attempts ?? 0

        // Then it is still queued, tried far more than ten times
        #expect(client.writes.count == 1)
        #expect(attempts > 10)

        // And once the backend answers, it goes, once
        failing.value = false
        _ = await clock.run(until: { client.writes.count == 0 }, limit: .seconds(600))
        #expect(client.writes.count == 0)
        #expect(delivered.value == 1)
        syncing.cancel()
    }
}

/// A counter a `Sendable` closure can add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

/// A flag a `Sendable` closure can read.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool
    init(_ value: Bool) { stored = value }
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
