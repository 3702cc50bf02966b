import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Listening and receipts after sign-in is renewed (found by the simulation's quiet point, which never came).
@MainActor
@Suite struct SyncEngineSignInTests {
    let world: DemoWorldFixture
    let client: CourierClient

    init() throws {
        world = try DemoWorldFixture()
        client = try world.open()
    }

    @Test("a read receipt refused while sign-in was expired goes out once it is renewed")
    func aWaitingReceiptGoesOutAfterRenewal() async throws {
        // Given a listening client whose sign-in expires, and a chat read meanwhile (its receipt refused)
        await world.waitUntil { client.syncEngine?.isLive == true }
        world.backend.isSignInExpired = true
        let newest = try #require(world.backend.messages(in: "c2").last)
        try #require(client.syncEngine).markRead("c2", upTo: newest.cursor)
        await world.waitUntil { !client.isBusy }
        #expect(client.syncEngine?.receipts.count == 1)

        // When sign-in is renewed
        world.backend.isSignInExpired = false
        client.listeningSignInRenewed()
        await world.waitUntil { client.syncEngine?.receipts.count == 0 }

        // Then the backend has the read marker
        #expect(world.backend.marker(.read, of: "me", in: "c2") == newest.id)
        client.close()
    }

    @Test("an unauthorized answer to a request sent before the renewal does not stop listening")
    func aStaleUnauthorizedAnswerDoesNotPause() async throws {
        // Given a client back in the foreground while sign-in is expired: its catch-up request reaches the backend
        // (half of wifi's 15–25 ms: by 12.5 ms), which answers unauthorized; the answer is still on its way back
        await world.waitUntil { client.syncEngine?.isLive == true }
        client.enterBackground()
        world.backend.isSignInExpired = true
        try world.backend.receive(
            Message(
                id: "ben-1", conversationID: "c2", senderID: "ben", text: "Still there?", timestamp: world.clock.now,
                status: .sent))
        client.enterForeground()
        await world.clock.advance(by: .milliseconds(13))

        // When sign-in is renewed before that answer arrives
        world.backend.isSignInExpired = false
        client.listeningSignInRenewed()
        await world.waitUntil { client.syncEngine?.isLive == true && client.messageCache.contains("ben-1", in: "c2") }

        // Then the old answer did not pause listening: the client asked again, listens, and has Ben's message
        let sync = try #require(client.syncEngine)
        #expect(!sync.isPausedForSignIn)
        #expect(sync.isLive)
        #expect(client.messageCache.contains("ben-1", in: "c2"))
        client.close()
    }

    @Test("one call renews everything the expired sign-in held: the message, the profile write and the receipt")
    func oneCallRenewsSendingWritesAndListening() async throws {
        // Given an expired sign-in holding a message, a name change and a read receipt
        await world.waitUntil { client.syncEngine?.isLive == true }
        world.backend.isSignInExpired = true
        let message = try client.outbox.compose(text: "held by the sign-in", in: "c2")
        let network = world.network
        client.writes.register(kind: "name") { write in
            try await network.updateDisplayName(of: "me", to: try write.decodePayload(String.self))
        }
        try client.writes.enqueue(kind: "name", key: "name", payload: "Renewed Me")
        client.syncWrites()
        let newest = try #require(world.backend.messages(in: "c2").last)
        try #require(client.syncEngine).markRead("c2", upTo: newest.cursor)
        await world.waitUntil { !client.isBusy }
        #expect(client.outbox.isPausedForSignIn)
        #expect(world.backend.message(message.id) == nil)

        // When sign-in is renewed, by the one call an app makes
        world.backend.isSignInExpired = false
        client.signInRenewed()
        await world.waitUntil { !client.isBusy && client.writes.count == 0 && client.syncEngine?.receipts.count == 0 }

        // Then the message is stored, the name changed and the read marker is at the backend
        #expect(world.backend.message(message.id) != nil)
        #expect(world.backend.user("me")?.displayName == "Renewed Me")
        #expect(world.backend.marker(.read, of: "me", in: "c2") == newest.id)
        #expect(!client.outbox.isPausedForSignIn)
        client.close()
    }

    @Test("a message refused on the old sign-in after it was renewed is sent again at once, not held")
    func aMessageRefusedOnTheOldSignInIsSentAgain() async throws {
        // Given a listening client whose sign-in expired, and a message whose request the backend refuses: by 13 ms
        // it reached the backend (half of wifi's 15–25 ms) and the refusal is on its way back
        await world.waitUntil { client.syncEngine?.isLive == true }
        world.backend.isSignInExpired = true
        let message = try client.outbox.compose(text: "sent as sign-in expired", in: "c2")
        await world.clock.advance(by: .milliseconds(13))

        // When sign-in is renewed before that refusal arrives
        world.backend.isSignInExpired = false
        client.signInRenewed()
        await world.waitUntil { !client.isBusy }

        // Then the refusal of the old sign-in held nothing: the message went again and is stored
        #expect(world.backend.message(message.id) != nil)
        #expect(client.outbox.pending.isEmpty)
        #expect(!client.outbox.isPausedForSignIn)
        client.close()
    }

    @Test("a receipt refused on the old sign-in after it was renewed goes again at once, not held")
    func aReceiptRefusedOnTheOldSignInGoesAgain() async throws {
        // Given a listening client whose sign-in expired, and a chat read: its receipt is on its way and refused
        await world.waitUntil { client.syncEngine?.isLive == true }
        world.backend.isSignInExpired = true
        let newest = try #require(world.backend.messages(in: "c2").last)
        try #require(client.syncEngine).markRead("c2", upTo: newest.cursor)
        await world.clock.advance(by: .milliseconds(13))

        // When sign-in is renewed before the refusal arrives
        world.backend.isSignInExpired = false
        client.signInRenewed()
        await world.waitUntil { !client.isBusy }

        // Then the receipt went again: the backend has the marker, nothing waits
        #expect(world.backend.marker(.read, of: "me", in: "c2") == newest.id)
        #expect(client.syncEngine?.receipts.count == 0)
        #expect(client.syncEngine?.receipts.isPausedForSignIn == false)
        client.close()
    }

    @Test("renewing sign-in while listening tells the screens the feed is live: what the old one refused loads")
    func aRenewalWhileListeningSaysLive() async throws {
        // Given a client that listens all along (its long poll never heard of the expiry)
        await world.waitUntil { client.syncEngine?.isLive == true }
        let sync = try #require(client.syncEngine)
        var updates: [SyncUpdate] = []
        let token = sync.observe { updates.append($0) }
        let renewals = client.sync.signInRenewals

        // When sign-in is renewed
        client.signInRenewed()

        // Then the screens hear the feed is live, as a chat whose page the expired sign-in refused waits to, and the
        // session counts the renewal, as a chat whose page was refused after it asks again by
        #expect(updates.contains(.live(true)))
        #expect(client.sync.signInRenewals == renewals + 1)
        token.cancel()
        client.close()
    }
}
