import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The outbox against the real in-memory backend: an id the backend holds with other content, and compose stamps.
@MainActor
@Suite("DurableOutbox conflicts and compose stamps")
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
            Message(
                id: takenID, conversationID: "c1", senderID: "me", text: "other", timestamp: clock.now,
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

    @Test("a conversation's compose stamps strictly increase within a clock tick, and after delivery and a relaunch")
    func composeStamps() async throws {
        // Given an outbox over a backend, offline, its clock standing still
        let backend = try BackendFixtures.backend()
        let outbox = DurableOutbox(
            store: store, repository: backend, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me")
        connectivity.set(online: false)

        // When two messages are composed in c1 and one in c2 within one tick, then sent and gone from the store
        let first = try outbox.compose(text: "one", in: "c1")
        let second = try outbox.compose(text: "two", in: "c1")
        let other = try outbox.compose(text: "elsewhere", in: "c2")
        connectivity.set(online: true)
        await outbox.sendAll()

        // Then each is stamped after the one composed before it (the clock's reading, then a millisecond on), and
        // the backend keeps them in that order, each with its stamp
        #expect(first.timestamp == clock.now)
        #expect(second.timestamp == first.timestamp.addingTimeInterval(0.001))
        #expect(other.timestamp == second.timestamp.addingTimeInterval(0.001))
        #expect(store.count == 0)
        #expect(backend.messages(in: "c1").map(\.id) == [first.id, second.id])
        #expect(backend.message(second.id)?.timestamp == second.timestamp)

        // And a message composed in c1 by a new outbox on the same store (a relaunch), at the same clock reading,
        // still comes after them: the store's stamp mark outlived the delivered messages
        outbox.stop()
        connectivity.set(online: false)
        let relaunched = DurableOutbox(
            store: store, repository: backend, connectivity: connectivity, clock: clock, ids: .seeded(8),
            currentUser: "me")
        #expect(try relaunched.compose(text: "three", in: "c1").timestamp == second.timestamp.addingTimeInterval(0.001))
    }
}
