import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// An orderly close never fails a message, and a send that returns means the message is stored.
@MainActor
@Suite struct DurableOutboxCloseTests {
    let clock = ManualClock()
    let disk = SimulatedFileSystem()
    let directory = URL(fileURLWithPath: "/client")
    let connectivity = ManualConnectivity(online: true)

    private func makeOutbox(store: FileOutboxStore, backend: FakeMessageRepository) -> DurableOutbox {
        DurableOutbox(
            store: store, repository: backend, connectivity: connectivity, clock: clock, ids: .seeded(3),
            currentUser: "me")
    }

    @Test func stoppingMidSendPutsTheMessageBackToQueuedAndItIsResentOnceLater() async throws {
        // Given a message whose send is in flight
        let backend = FakeMessageRepository(clock: clock, latency: .milliseconds(50))
        let store = try FileOutboxStore(directory: directory, fileSystem: disk)
        let outbox = makeOutbox(store: store, backend: backend)
        var seen: [String] = []
        let token = outbox.observe { event in
            if case .changed(let message) = event { seen.append("\(message.text):\(message.status.rawValue)") }
        }
        let message = try outbox.compose(text: "cut off", in: "c1")
        await clock.idle()
        #expect(outbox.isBusy)

        // When the app closes in an orderly way mid-send
        outbox.stop()
        outbox.stop()  // twice is harmless
        _ = await clock.run(until: { !outbox.isBusy })
        token.cancel()

        // Then nothing failed it, and the reopened store holds it queued, as a send that was on its way whose
        // outcome is unknown (the backend may hold it): its text stays as sent
        #expect(seen == ["cut off:sending"])
        store.close()
        let reopened = try FileOutboxStore(directory: directory, fileSystem: disk)
        #expect(reopened.all().map(\.id) == [message.id])
        #expect(reopened.all().map(\.status) == [.queued])
        #expect(reopened.message(message.id)?.lastError == .unanswered)
        #expect(reopened.message(message.id)?.outcomeUnknown == true)
        #expect(reopened.requeuedAtOpen == [message.id])

        // And the next launch resends it, with the same id, and the backend holds it once
        let again = makeOutbox(store: reopened, backend: backend)
        _ = await clock.run(until: { reopened.count == 0 && !again.isBusy })
        #expect(backend.stored.map(\.id) == [message.id])
        #expect(reopened.count == 0)
    }

    @Test func aSendThatReturnsMarksTheMessageSentWhateverStatusTheBackendEchoed() async throws {
        // Given a backend that answers with the message as given (status `sending`)
        let backend = FakeMessageRepository(clock: clock, latency: .milliseconds(50), reply: .asGiven)
        let store = try FileOutboxStore(directory: directory, fileSystem: disk)
        let outbox = makeOutbox(store: store, backend: backend)
        var seen: [String] = []
        let token = outbox.observe { event in
            if case .changed(let message) = event { seen.append("\(message.text):\(message.status.rawValue)") }
        }

        // When a message is sent
        try outbox.compose(text: "echoed", in: "c1")
        _ = await clock.run(until: { !outbox.isBusy })
        token.cancel()

        // Then it is shown sent and has left the outbox
        #expect(seen == ["echoed:sending", "echoed:sent"])
        #expect(store.count == 0)
        #expect(backend.stored.map(\.text) == ["echoed"])
    }

    @Test func anEchoedLaterStatusOnlyUpgradesTheMessage() {
        // Given messages as a backend may echo them
        let date = Date(timeIntervalSince1970: 10)
        let base = Message(
            id: "m", conversationID: "c1", senderID: "me", text: "x", timestamp: date, status: .queued)

        // Then pending statuses become sent and later ones stay
        for (echoed, expected) in [
            (MessageStatus.queued, MessageStatus.sent), (.sending, .sent), (.failed, .sent), (.sent, .sent),
            (.delivered, .delivered), (.read, .read),
        ] {
            var message = base
            message.status = echoed
            #expect(message.acknowledged(at: date).status == expected, "echoed \(echoed)")
        }
    }
}
