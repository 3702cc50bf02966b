import CourierData
import CourierDomain
import CourierPresentation
import Foundation
import Testing

/// An app adopting Courier through the library products alone, with its own backend and connectivity: the
/// integration docs/architecture.md quotes from this file (this test is its source of truth).
@MainActor
@Suite struct AdoptionTests {
    let clock = ManualClock()
    let backend = DictionaryBackend()
    let connectivity = SwitchConnectivity(online: false)

    /// The client the app opens at launch, as the integration below does.
    private func launch(on directory: URL) throws -> CourierClient {
        try CourierClient(
            directory: directory, currentUser: "me", messages: backend, conversations: backend, users: backend,
            connectivity: connectivity, clock: clock, ids: .random)
    }

    @Test func messagesSentOfflineSurviveARestartAndGoOutOnceInOrderWithSendAll() async throws {
        let folder = try ScratchDirectory()
        let directory = folder.url.appendingPathComponent("courier")

        // Given an app that composes three messages offline, then closes
        // integration: begin
        let client = try CourierClient(
            directory: directory, currentUser: "me", messages: backend, conversations: backend, users: backend,
            connectivity: connectivity, clock: clock, ids: .random)
        let banner = ConnectivityBannerViewModel(session: client)
        let chat = ChatViewModel(session: client, conversationID: "c1", title: "Ana", banner: banner)
        let queue = OfflineQueueViewModel(session: client, conversationName: { $0.rawValue })
        chat.start()
        for text in ["one", "two", "three"] { try chat.send(text: text) }
        // integration: end
        #expect(chat.state.messages.map(\.statusLabel) == ["Queued", "Queued", "Queued"])
        #expect(banner.state.banner.text == "You're offline. 3 messages queued.")
        #expect(queue.state.rows.map(\.text) == ["one", "two", "three"])
        #expect(throws: StoreError.locked(path: directory.path)) { try launch(on: directory) }
        // integration: close
        client.close()
        // integration: end
        client.close()  // closing twice is harmless

        // When it restarts on the same directory, comes online and the user sends everything
        let restarted = try launch(on: directory)
        let shared = ConnectivityBannerViewModel(session: restarted)
        let reopened = ChatViewModel(session: restarted, conversationID: "c1", title: "Ana", banner: shared)
        let reopenedQueue = OfflineQueueViewModel(session: restarted, conversationName: { $0.rawValue })
        reopened.start()
        #expect(reopened.state.messages.map(\.text) == ["one", "two", "three"])
        connectivity.set(online: true)
        // integration: send
        await restarted.sendAll()  // returns when the pass is over
        await restarted.idle()  // everything the client started is done
        // integration: end

        // Then the backend holds every message once, in compose order, and every screen shows them sent
        #expect(backend.stored.map(\.text) == ["one", "two", "three"])
        #expect(backend.sends.values.allSatisfy { $0 == 1 })
        #expect(reopened.state.messages.map(\.statusLabel) == ["Sent", "Sent", "Sent"])
        #expect(reopenedQueue.state.rows.isEmpty)
        #expect(restarted.outbox.pending.isEmpty)
        restarted.close()

        // And a further restart finds nothing pending and sends nothing again
        let again = try launch(on: directory)
        await again.sendAll()
        await again.idle()
        #expect(again.outbox.pending.isEmpty)
        #expect(backend.stored.count == 3)
        #expect(backend.sends.values.allSatisfy { $0 == 1 })
        again.close()
    }
}
