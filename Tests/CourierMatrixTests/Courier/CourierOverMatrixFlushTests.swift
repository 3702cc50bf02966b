import CourierData
import CourierDomain
import CourierMatrix
import CourierTestSupport
import Foundation
import Testing

/// When a queue built while the homeserver could not be reached goes, on a real Synapse: the moments Element X's
/// users found it did not (element-x-ios #2952: not until the app was force-quit; #3152: a retry that waited out its
/// timer). Each test has a Synapse of its own (it is killed and restarted).
@MainActor
@Suite(.serialized, .removesTemporaryDirectories, .timeLimit(.minutes(5)))
struct CourierOverMatrixFlushTests {
    @Test func aQueueLeftByAGoneHomeserverGoesOnReturnToTheForegroundWithoutAForceQuit() async throws {
        // Given a message queued while the homeserver was gone, and the app sent to the background
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .automatic)
        try await server.kill()
        let message = try courier.client.outbox.compose(text: "back soon", in: ConversationID(room))
        // (the send's own answer may come after the feed's failure told reachability: wait for both to end)
        #expect(
            await courier.wait {
                !courier.client.reachability.isReachable && courier.client.outbox.pending.first?.status != .sending
            })
        courier.client.enterBackground()

        // When the homeserver comes back while the app is in the background
        try await server.restart()

        // Then nothing is probed there, and the message still waits, queued and visible
        #expect(courier.client.reachability.nextProbe == nil)
        #expect(courier.client.outbox.pending.map(\.id) == [message.id])
        #expect(courier.client.outbox.pending.first?.status == .queued)

        // And when the app returns to the foreground, the same process (no relaunch) sends it, once
        courier.client.enterForeground()
        #expect(await courier.wait(until: { courier.client.outbox.pending.isEmpty }, attempts: 1_000))
        #expect(try await ben.messages(room, count: 1).map(\.body) == ["back soon"])
    }

    @Test func anyAnsweredRequestBringsTheQueueBackWithoutWaitingForAProbe() async throws {
        // Given two messages queued while the homeserver was gone, and probes that can never answer: only an
        // ordinary request can tell the device that the homeserver is back
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .automatic)
        courier.client.reachability.setProbe { throw DeliveryError.unreachable }
        try await server.kill()
        for text in ["one", "two"] { _ = try courier.client.outbox.compose(text: text, in: ConversationID(room)) }
        #expect(await courier.wait { !courier.client.reachability.isReachable })
        // (a send cut off by the loss goes back to queued as its lane stops)
        #expect(await courier.wait { courier.client.outbox.pending.allSatisfy { $0.status == .queued } })

        // When the homeserver is back and the app asks it anything (the list's first page)
        try await server.restart()
        let page = try await courier.client.conversations.conversations(of: courier.user, after: nil, limit: 20)

        // Then the answer alone brings the queue back: both go, once, in order, never failed
        #expect(page.conversations.contains { $0.id.rawValue == room })
        #expect(await courier.wait(until: { courier.client.outbox.pending.isEmpty }, attempts: 1_000))
        #expect(try await ben.messages(room, count: 2).map(\.body) == ["one", "two"])
        #expect(courier.client.reachability.isReachable)
    }

    @Test func anOutageOfManyProbesNeverFailsAMessageItStaysQueuedAndRetryable() async throws {
        // Given the homeserver gone while I type, with the manual policy (messages wait for Send All)
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .manual)
        try await server.kill()
        let message = try courier.client.outbox.compose(text: "on the tube", in: ConversationID(room))

        // When the outage lasts through several probes (1 s, 2 s, 4 s apart)
        #expect(await courier.wait(until: { courier.client.reachability.probesSent >= 3 }, attempts: 1_500))

        // Then the message is queued, never failed, and still mine to send
        #expect(courier.client.outbox.pending.map(\.id) == [message.id])
        #expect(courier.client.outbox.pending.first?.status == .queued)

        // And when the homeserver is back and I press Send All, it goes once
        try await server.restart()
        #expect(await courier.wait(until: { courier.client.reachability.isReachable }, attempts: 1_500))
        await courier.client.outbox.sendAll()
        #expect(courier.client.outbox.pending.isEmpty)
        #expect(try await ben.messages(room, count: 1).map(\.body) == ["on the tube"])
    }
}
