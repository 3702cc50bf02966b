import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The delivered receipts a catch-up owes: every conversation a batch brought messages into is acknowledged up to
/// its newest message; the batch queues those receipts durably in one append, however many conversations it
/// touched, and a catch-up of many batches sends one per conversation at its end (a synced append and a request
/// per conversation and batch were much of a catch-up's cost, docs/benchmarks.md "Live sync").
@MainActor
@Suite struct SyncEngineReceiptTests {
    @Test func aBatchAcknowledgesEveryConversationItTouchedInOneAppend() async throws {
        // Given a listening engine whose device went offline while Ana (c1) and Ben (c2) wrote two messages each
        let world = try await World()
        let appends = world.receiptLog.appends

        // When it comes back online and catches up
        world.network.setOnline(true)
        #expect(await world.settle())

        // Then the backend holds both conversations delivered up to their newest message, and the receipt log took
        // one append for the two receipts, then one per delivered receipt as it left the queue
        #expect(world.engine.appliedEvents >= 4)
        #expect(world.backend.marker(.delivered, of: "me", in: "c1") == world.newest["c1"])
        #expect(world.backend.marker(.delivered, of: "me", in: "c2") == world.newest["c2"])
        #expect(world.receiptLog.appends == appends + 1 + 2)
    }

    @Test func aCatchUpOfManyBatchesSendsOneDeliveredReceiptPerConversationAtItsEnd() async throws {
        // Given the same, with batches of two events: the catch-up takes two batches, each touching both chats
        let world = try await World(settings: SyncSettings(batchLimit: 2))
        var delivered: [Receipt] = []
        let token = world.receipts.observe { event in
            if case .delivered(let write) = event, let receipt = try? write.decodePayload(Receipt.self) {
                delivered.append(receipt)
            }
        }

        // When it comes back online and catches up
        world.network.setOnline(true)
        #expect(await world.settle())

        // Then one delivered receipt per conversation went out, each up to that conversation's newest message
        #expect(delivered.map(\.conversationID).sorted() == ["c1", "c2"])
        #expect(delivered.allSatisfy { $0.kind == .delivered && $0.upTo.id == world.newest[$0.conversationID] })
        #expect(world.backend.marker(.delivered, of: "me", in: "c1") == world.newest["c1"])
        #expect(world.backend.marker(.delivered, of: "me", in: "c2") == world.newest["c2"])
        token.cancel()
    }

    /// A backend behind the simulated network, a sync engine on in-memory stores that caught up and went live, then
    /// went offline while Ana and Ben wrote two messages each (c1, c2, c1, c2).
    @MainActor
    private final class World {
        let clock = ManualClock()
        let backend: InMemoryChatBackend
        let network: NetworkConditioner
        let receiptLog = InMemoryRecordStorage()
        let receipts: OfflineWriteQueue
        let engine: SyncEngine
        private(set) var newest: [ConversationID: MessageID] = [:]

        init(settings: SyncSettings = SyncSettings()) async throws {
            backend = try BackendFixtures.backend()
            network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
            receipts = try OfflineWriteQueue(storage: receiptLog, clock: clock, connectivity: network)
            engine = try SyncEngine(
                feed: network, user: "me", cursorStorage: InMemoryRecordStorage(),
                messageCache: MessageCache(storage: InMemoryRecordStorage()),
                conversationCache: ConversationCache(storage: InMemoryRecordStorage()),
                outbox: FakeMessageOutbox(clock: clock, connectivity: ManualConnectivity()), receipts: receipts,
                connectivity: network, clock: clock, settings: settings)
            engine.start()
            let engine = engine
            #expect(await clock.run(until: { engine.isLive }))
            network.setOnline(false)
            for index in 0..<4 {
                let conversation: ConversationID = index.isMultiple(of: 2) ? "c1" : "c2"
                let sender: UserID = index.isMultiple(of: 2) ? "ana" : "ben"
                let message = Message(
                    id: MessageID("p\(index)"), conversationID: conversation, senderID: sender,
                    text: "hello \(index)", timestamp: BackendFixtures.now.addingTimeInterval(Double(index)),
                    status: .sent)
                newest[conversation] = try backend.receive(message).id
            }
        }

        /// Runs the clock until the engine is live again with no receipt left to send.
        func settle() async -> Bool {
            let engine = engine
            let receipts = receipts
            return await clock.run(until: { engine.isLive && receipts.count == 0 && !engine.isDeliveringReceipts })
        }

        isolated deinit { engine.stop() }
    }
}
