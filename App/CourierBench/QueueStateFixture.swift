import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// What the Offline Queue screen stands on in `queue-state`: an offline `DurableOutbox` over a given store, the
/// simulated network as its connectivity, and a second outbox over the same store that nobody observes (what an
/// event costs without a screen).
@MainActor
final class QueueStateFixture {
    let clock: ManualClock
    let outbox: DurableOutbox
    let unobservedOutbox: DurableOutbox
    private let network: NetworkConditioner

    init(store: any OutboxStore, clock: ManualClock) throws {
        self.clock = clock
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1), isOnline: false)
        outbox = Self.outbox(store: store, network: network, clock: clock)
        unobservedOutbox = Self.outbox(store: store, network: network, clock: clock)
    }

    /// A fresh Offline Queue screen over `outbox`.
    func makeScreen() -> OfflineQueueViewModel {
        OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: Self.conversationName)
    }

    /// The name a row shows for its conversation.
    static func conversationName(_ id: ConversationID) -> String { "Chat \(id.rawValue.dropFirst())" }

    private static func outbox(
        store: any OutboxStore, network: NetworkConditioner, clock: ManualClock
    ) -> DurableOutbox {
        DurableOutbox(
            store: store, repository: network, connectivity: network, clock: clock, ids: .seeded(2), currentUser: "me")
    }
}
