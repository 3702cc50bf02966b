import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The outbox against the real in-memory backend: an id the backend holds with other content, and compose sequences.
@MainActor
@Suite("DurableOutbox conflicts and sequences")
struct DurableOutboxConflictTests {
    let clock = ManualClock()
    let store = InMemoryOutboxStore()
    let connectivity = ManualConnectivity(online: true)

    @Test("an id the backend holds with other text fails at once as a conflict; the message stays failed, kept")
    func conflictingIDFails() async throws {
        // Given a backend that already holds, under the id the outbox will use next, a message with other text
        let backend = try BackendFixtures.backend()
        let takenID = IDGenerator.seeded(7).next()
        try backend.receive(
            Message(id: takenID, conversationID: "c1", senderID: "me", text: "other", timestamp: clock.now,
                    status: .sent))
        let outbox = DurableOutbox(
            store: store, repository: backend, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me")

        // When a message is composed online and its send finishes
        let message = try outbox.compose(text: "hello", in: "c1")
        _ = await clock.run(until: { !outbox.isBusy })

        // Then it is failed with the conflict (not retried, not reported sent), kept with its text
        #expect(message.id == takenID)
        let failed = try #require(store.message(takenID))
        #expect(failed.status == .failed)
        #expect(failed.text == "hello")
        #expect(failed.lastError == .conflict)
        #expect(backend.requests == 1)
        // And the backend still holds its own message, untouched, with no duplicate counted
        #expect(backend.message(takenID)?.text == "other")
        #expect(backend.duplicatesIgnored == 0)
    }

    @Test("each conversation numbers its composed messages 1, 2, 3 …, also after they were delivered")
    func composeSequences() async throws {
        // Given an outbox over a backend
        let backend = try BackendFixtures.backend()
        let outbox = DurableOutbox(
            store: store, repository: backend, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me")
        // When messages are composed in two conversations, some delivered and gone from the store between
        connectivity.set(online: false)
        let first = try outbox.compose(text: "one", in: "c1")
        let second = try outbox.compose(text: "two", in: "c1")
        let other = try outbox.compose(text: "elsewhere", in: "c2")
        // Then the sequences count per conversation, and the backend stores them with the message
        #expect([first, second, other].map(\.sequence) == [1, 2, 1])
        connectivity.set(online: true)
        await outbox.sendAll()
        #expect(store.count == 0)
        #expect(backend.message(second.id)?.sequence == 2)
        // And a message composed after the others were delivered continues the count
        connectivity.set(online: false)
        #expect(try outbox.compose(text: "three", in: "c1").sequence == 3)
    }
}
