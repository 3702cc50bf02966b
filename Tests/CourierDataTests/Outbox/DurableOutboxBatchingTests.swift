import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// What the server sees of the outbox: batch sizes, the order inside them, and how many requests a connectivity
/// flicker causes — observed at a backend that records every request.
@MainActor
@Suite struct DurableOutboxBatchingTests {
    let clock = ManualClock()
    let store = InMemoryOutboxStore()
    let connectivity = ManualConnectivity(online: false)
    /// Answers every batch at once and records each request; the outbox never loads pages.
    let backend: FakeMessageRepository

    init() { backend = FakeMessageRepository(clock: clock, serves: .sends) }

    func makeOutbox(policy: SendPolicy) -> DurableOutbox {
        DurableOutbox(
            store: store, repository: backend, connectivity: connectivity, clock: clock, ids: .seeded(11),
            currentUser: "me", policy: policy)
    }

    @Test func queuedMessagesGoOutInOrderedBatchesOfAtMost25() async throws {
        // Given 60 messages queued offline in one conversation
        let outbox = makeOutbox(policy: .manual)
        let texts = (0..<60).map { "m\($0)" }
        for text in texts { try outbox.compose(text: text, in: "c2") }

        // When the user sends them all once online
        connectivity.set(online: true)
        await outbox.sendAll()
        _ = await clock.run(until: { !outbox.isBusy })

        // Then the server received three batches of 25, 25 and 10, each in compose order, and the queue is empty
        #expect(backend.batches.map(\.count) == [25, 25, 10])
        #expect(backend.batches.flatMap { $0 }.map(\.text) == texts)
        #expect(store.count == 0)
    }

    @Test func aFlickerDuringTheRoundPauseSendsNoExtraRequest() async throws {
        // Given the automatic policy and a message the server keeps refusing with a retryable error
        connectivity.set(online: true)
        let outbox = makeOutbox(policy: .automatic)
        backend.refusal = .server(code: 503)
        let start = clock.now
        let message = try outbox.compose(text: "struggling", in: "c2")

        // When the connection flickers one second into the 5 s pause after the first round
        await clock.advance(by: .seconds(1))
        #expect(backend.requestTimes.count == 1, "the first round went out at once")
        connectivity.set(online: false)
        connectivity.set(online: true)
        _ = await clock.run(until: { !outbox.isBusy })

        // Then the server saw exactly one request per round, 5 s apart, and the message failed after three rounds
        #expect(backend.requestTimes.map { $0.timeIntervalSince(start) } == [0, 5, 10])
        #expect(store.message(message.id)?.status == .failed)
        #expect(store.message(message.id)?.attempts == 3)
    }

    @Test func aMessageTheServerRefusesIsSentOnceAndFailsEvenWithTheAutomaticPolicy() async throws {
        // Given the automatic policy and a server that refuses the message as invalid
        connectivity.set(online: true)
        let outbox = makeOutbox(policy: .automatic)
        backend.refusal = .validation(reason: "too many links")

        // When it is composed and everything settles
        let message = try outbox.compose(text: "spam spam", in: "c2")
        _ = await clock.run(until: { !outbox.isBusy })

        // Then the server saw one request, and the message is failed with the server's reason after one round
        #expect(backend.requestTimes.count == 1)
        #expect(store.message(message.id)?.status == .failed)
        #expect(store.message(message.id)?.attempts == 1)
        #expect(store.message(message.id)?.lastError == .validation(reason: "too many links"))
    }
}
