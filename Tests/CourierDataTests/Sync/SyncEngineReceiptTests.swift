import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The delivered receipts a catch-up owes: every conversation a batch brought messages into is acknowledged up to
/// its newest message, and the batch queues those receipts durably in one append, however many conversations it
/// touched (a synced append each was most of a catch-up's disk time, docs/benchmarks.md "Live sync").
@MainActor
@Suite struct SyncEngineReceiptTests {
    @Test func aBatchAcknowledgesEveryConversationItTouchedInOneAppend() async throws {
        // Given a listening engine over the simulated network, caught up, whose device goes offline while Ana (c1)
        // and Ben (c2) write two messages each
        let clock = ManualClock()
        let backend = try BackendFixtures.backend()
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
        let receiptLog = InMemoryRecordStorage()
        let receipts = try OfflineWriteQueue(storage: receiptLog, clock: clock, connectivity: network)
        let engine = try SyncEngine(
            feed: network, user: "me", cursorStorage: InMemoryRecordStorage(),
            messageCache: MessageCache(storage: InMemoryRecordStorage()),
            conversationCache: ConversationCache(storage: InMemoryRecordStorage()),
            outbox: QueueFakeOutbox(clock: clock, connectivity: ManualConnectivity()), receipts: receipts,
            connectivity: network, clock: clock)
        engine.start()
        #expect(await clock.run(until: { engine.isLive }))
        network.setOnline(false)
        var newest: [ConversationID: MessageID] = [:]
        for index in 0..<4 {
            let conversation: ConversationID = index.isMultiple(of: 2) ? "c1" : "c2"
            let sender: UserID = index.isMultiple(of: 2) ? "ana" : "ben"
            let message = Message(
                id: MessageID("p\(index)"), conversationID: conversation, senderID: sender,
                text: "hello \(index)", timestamp: BackendFixtures.now.addingTimeInterval(Double(index)), status: .sent)
            newest[conversation] = try backend.receive(message).id
        }
        let appends = receiptLog.appends

        // When it comes back online and catches up
        network.setOnline(true)
        #expect(await clock.run(until: { engine.isLive && receipts.count == 0 && !engine.isDeliveringReceipts }))

        // Then the backend holds both conversations delivered up to their newest message, and the receipt log took
        // one append for the two receipts, then one per delivered receipt as it left the queue
        #expect(engine.appliedEvents >= 4)
        #expect(backend.marker(.delivered, of: "me", in: "c1") == newest["c1"])
        #expect(backend.marker(.delivered, of: "me", in: "c2") == newest["c2"])
        #expect(receiptLog.appends == appends + 1 + 2)
        engine.stop()
    }
}
