import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Listening and receipts after sign-in is renewed (found by the simulation's quiet point, which never came).
@MainActor
@Suite struct SyncEngineSignInTests {
    let clock = ManualClock()
    let backend: InMemoryChatBackend
    let network: NetworkConditioner
    let client: CourierClient

    init() throws {
        backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
        client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(3), feed: network,
            fileSystem: SimulatedFileSystem())
    }

    @Test("a read receipt refused while sign-in was expired goes out once it is renewed")
    func aWaitingReceiptGoesOutAfterRenewal() async throws {
        // Given a listening client whose sign-in expires, and a chat read meanwhile (its receipt refused)
        await waitUntil { client.syncEngine?.isLive == true }
        backend.isSignInExpired = true
        let newest = try #require(backend.messages(in: "c2").last)
        try #require(client.syncEngine).markRead("c2", upTo: newest.cursor)
        await waitUntil { !client.isBusy }
        #expect(client.syncEngine?.receipts.count == 1)

        // When sign-in is renewed
        backend.isSignInExpired = false
        client.listeningSignInRenewed()
        await waitUntil { client.syncEngine?.receipts.count == 0 }

        // Then the backend has the read marker
        #expect(backend.marker(.read, of: "me", in: "c2") == newest.id)
        client.close()
    }

    @Test("an unauthorized answer to a request sent before the renewal does not stop listening")
    func aStaleUnauthorizedAnswerDoesNotPause() async throws {
        // Given a client back in the foreground while sign-in is expired: its catch-up request reaches the backend
        // (half of wifi's 15–25 ms: by 12.5 ms), which answers unauthorized; the answer is still on its way back
        await waitUntil { client.syncEngine?.isLive == true }
        client.enterBackground()
        backend.isSignInExpired = true
        try backend.receive(
            Message(
                id: "ben-1", conversationID: "c2", senderID: "ben", text: "Still there?", timestamp: clock.now,
                status: .sent))
        client.enterForeground()
        await clock.advance(by: .milliseconds(13))

        // When sign-in is renewed before that answer arrives
        backend.isSignInExpired = false
        client.listeningSignInRenewed()
        await waitUntil { client.syncEngine?.isLive == true && client.messageCache.contains("ben-1", in: "c2") }

        // Then the old answer did not pause listening: the client asked again, listens, and has Ben's message
        let sync = try #require(client.syncEngine)
        #expect(!sync.isPausedForSignIn)
        #expect(sync.isLive)
        #expect(client.messageCache.contains("ben-1", in: "c2"))
        client.close()
    }

    /// Runs the clock until `condition` holds (at most ten minutes of clock time).
    private func waitUntil(_ condition: () -> Bool) async {
        _ = await clock.run(until: condition, limit: .seconds(600))
    }
}
