import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// The sync engine's receipt sender, alone, over a write queue on a manual clock.
@MainActor
@Suite(.timeLimit(.minutes(3))) struct ReceiptSenderTests {
    @Test func itDeliversWhatWaitsOnlyWhenItMayAndOneDeliveryAtATime() async throws {
        // Given two queued writes, and a sender that may not deliver yet
        let fixture = WriteQueueFixture()
        fixture.connectivity.set(online: true)
        let queue = try fixture.open(holding: ["a", "b"], script: [])
        let may = WriteQueueTestBox<Bool>()
        may.value = false
        let sender = ReceiptSender(queue: queue, clock: fixture.clock) { may.value == true }

        // When asked to deliver while it may not, then twice when it may
        sender.deliver()
        #expect(!sender.isDelivering && sender.work == nil)
        may.value = true
        sender.deliver()
        sender.deliver()

        // Then one delivery runs, and when it ends both went out once, in order
        #expect(sender.isDelivering)
        _ = await fixture.clock.run(until: { !sender.isDelivering })
        #expect(fixture.executor.deliveredValues == ["a", "b"])
        #expect(queue.count == 0 && sender.work == nil)
    }

    @Test func aReceiptQueuedWhileADeliveryRunsGoesAtOnceAfterIt() async throws {
        // Given a delivery under way on a slow backend
        let fixture = WriteQueueFixture()
        fixture.connectivity.set(online: true)
        fixture.executor.latency = .seconds(1)
        let queue = try fixture.open(holding: ["a"], script: [])
        let sender = ReceiptSender(queue: queue, clock: fixture.clock) { true }
        sender.deliver()
        await fixture.clock.idle()

        // When another is queued meanwhile
        try fixture.enqueue(queue, "b")
        sender.noteAppend()

        // Then it goes in a delivery of its own right after, with no other call
        _ = await fixture.clock.run(until: { queue.count == 0 && !sender.isDelivering })
        #expect(fixture.executor.deliveredValues == ["a", "b"])
    }
}
