import CourierApp
import CourierData
import CourierDomain
import CourierFakes
import Foundation
import Testing

/// Failures the simulation found, kept as tests.
@Suite("Simulation regressions")
@MainActor
struct SimRegressionTests {
    /// Found by courier-sim (every seed with a restart or crash while a send was in flight spun the clock for
    /// minutes): when the outbox store refuses to forget a delivered message — closed by an app restart, or a
    /// failing disk — the lane finds the message still `sending` and sends it again, forever, one round trip after
    /// another. The backend ignores the duplicates (invariant 2 holds), but the loop never ends. The fix belongs in
    /// `DurableOutbox.runLane` (Data/Library/Outbox): the lane now stops when the store refuses a change.
    @Test("a lane stops when the store refuses to record a delivery")
    func laneStopsWhenTheStoreRefuses() async throws {
        // Given an outbox over a store on a simulated disk and a network with 20 ms of latency
        let clock = ManualClock()
        let fileSystem = SimulatedFileSystem()
        let store = try FileOutboxStore(directory: URL(fileURLWithPath: "/data/client"), fileSystem: fileSystem)
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        let random = LockedRandom(seed: 1)
        let network = NetworkConditioner(backend: backend, clock: clock, random: random)
        let repository = RetryingMessageRepository(base: network, clock: clock, random: random, connectivity: network)
        let outbox = DurableOutbox(
            store: store, repository: repository, connectivity: network, clock: clock, ids: .seeded(1),
            currentUser: "me")
        // When a message is sent and the store closes (an app restart) while the request is in flight
        try outbox.compose(text: "hello", in: backend.conversationIDs[0])
        store.close()
        await clock.advance(by: .seconds(2))
        // Then the message was sent once, and the lane is over
        #expect(network.roundTrips == 1)
        #expect(!outbox.isBusy)
    }
}
