import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// One compose order on the device and at the backend (docs/design.md §2.3): timestamp — the compose stamp — then
/// id. In each case below a clock reading and the order of arrival would disagree (the device's clock set back, a
/// peer's clock ahead, a message held back offline), and the chat shows exactly what a fresh fetch from the backend
/// holds, in the same order.
@MainActor
@Suite("Compose order: the device and the backend agree")
struct ComposeOrderTests {
    let backend: InMemoryChatBackend
    let disk = SimulatedFileSystem()
    let now = BackendFixtures.now

    init() throws {
        backend = try InMemoryChatBackend(seed: BackendFixtures.twoConversations(), journal: InMemoryBackendJournal())
    }

    /// Ana's chat as a fresh fetch from the backend gives it: its newest page, oldest first.
    private var fetched: [MessageID] {
        get throws { try backend.messages(in: "c1", before: nil, limit: 50).messages.map(\.id) }
    }

    /// A message from Ana, stamped by her device's clock.
    @discardableResult
    private func fromAna(_ id: String, stampedAt stamp: Date) throws -> Message {
        try backend.receive(
            Message(
                id: MessageID(id), conversationID: "c1", senderID: "ana", text: id, timestamp: stamp, status: .sent))
    }

    @Test("the clock set back after the outbox emptied: a new message is still last, on the device and the backend")
    func clockSetBack() async throws {
        // Given a message sent and delivered (the outbox is empty again), then the app closed
        let first = try ComposeOrderDevice(backend: backend, disk: disk, now: now, seed: 1)
        await first.settle()
        let before = try await first.send("before")
        first.close()

        // When the device's clock is set back an hour and the app, launched again, sends another
        let relaunched = try ComposeOrderDevice(backend: backend, disk: disk, now: now - 3_600, seed: 2)
        await relaunched.settle()
        let after = try await relaunched.send("after")

        // Then the new message comes after the earlier one in the chat and at the backend alike
        #expect(relaunched.shown == [before, after])
        #expect(try fetched == [before, after])
        let stamps = [before, after].compactMap { backend.message($0)?.timestamp }
        #expect(stamps.count == 2 && stamps[1] == stamps[0] + 0.001)
        relaunched.close()
    }

    @Test("a peer's message stamped ahead of my clock: my reply comes after it, on the device and the backend")
    func peerClockAhead() async throws {
        // Given Ana's message stamped by a clock five minutes ahead of mine, shown in my open chat
        let device = try ComposeOrderDevice(backend: backend, disk: disk, now: now, seed: 1)
        await device.settle()
        let question = try fromAna("question", stampedAt: now + 300)
        await device.settle()
        #expect(device.shown == [question.id])

        // When I reply at my clock's reading
        let reply = try await device.send("reply")

        // Then my reply is stamped just after her message, and stands after it in the chat and at the backend
        #expect(device.shown == [question.id, reply])
        #expect(try fetched == [question.id, reply])
        #expect(backend.message(reply)?.timestamp == question.timestamp + 0.001)
        device.close()
    }

    @Test("a message held back offline while a peer posted takes the same place on the device and the backend")
    func heldBackOffline() async throws {
        // Given a message composed offline, then Ana posting a minute later while it waits in the queue
        let device = try ComposeOrderDevice(backend: backend, disk: disk, now: now, seed: 1)
        await device.settle()
        device.network.setOnline(false)
        let held = try device.chat.send(text: "written offline")
        await device.settle()
        await device.clock.advance(by: .seconds(60))
        let later = try fromAna("later", stampedAt: device.clock.now)

        // When the device is back online a minute after that and sends what waited
        await device.clock.advance(by: .seconds(60))
        device.network.setOnline(true)
        await device.sendAll()

        // Then the held message, though it reached the backend last, stands before Ana's in the chat and at the
        // backend, as it was composed
        #expect(device.shown == [held, later.id])
        #expect(try fetched == [held, later.id])
        #expect(backend.message(held)?.status == .sent)
        device.close()
    }
}
