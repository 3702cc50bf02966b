import CourierData
import CourierDomain
import CourierMatrix
import CourierTestSupport
import Foundation
import Testing

/// What a homeserver that dies, restarts or forgets does to Courier's messages: nothing lost, nothing twice. Each
/// test has a Synapse of its own.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories, .timeLimit(.minutes(5)))
struct CourierOverMatrixOutageTests {
    @Test func aHomeserverThatIsGoneKeepsMessagesQueuedAndVisibleAndTheyGoWhenItAnswers() async throws {
        // Given me online, and the homeserver killed
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .automatic)
        try await server.kill()

        // When I type a message
        let message = try courier.client.outbox.compose(text: "are you there", in: ConversationID(room))

        // Then it waits queued — never failed — while the homeserver cannot be reached
        #expect(await courier.wait { courier.client.outbox.pending.first?.status == .queued })
        #expect(courier.client.outbox.pending.map(\.id) == [message.id])
        #expect(!courier.client.connectivity.isOnline)

        // And when the homeserver is back, it goes by itself, once
        try await server.restart()
        #expect(await courier.wait(until: { courier.client.outbox.pending.isEmpty }, attempts: 3_000))
        #expect(try await ben.messages(room, count: 1).map(\.body) == ["are you there"])
    }

    @Test func aHomeserverKilledMidSendLosesNothingAcknowledgedAndDuplicatesNothing() async throws {
        // Given twenty messages on their way
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .automatic)
        let texts = (1...20).map { "m\($0)" }
        for text in texts { _ = try courier.client.outbox.compose(text: text, in: ConversationID(room)) }

        // When the homeserver is SIGKILLed once a few are acknowledged, and restarted
        #expect(await courier.wait { courier.client.outbox.pending.count <= 16 })
        try await server.kill()
        try await server.restart()

        // Then every message is stored once, in the order typed
        #expect(await courier.wait(until: { courier.client.outbox.pending.isEmpty }, attempts: 3_000))
        #expect(try await ben.messages(room, count: texts.count).map(\.body) == texts)
    }

    @Test func aResendAfterTheHomeserverForgotItsTransactionIdsIsStoredOnce() async throws {
        // Given a message the homeserver stored, whose answer this device never got (it is still pending here)
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let first = try await CourierOverMatrix(server, as: me.account)
        let message = Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: ConversationID(room), senderID: first.user,
            text: "only once", timestamp: Date(), status: .sending)
        _ = try await first.matrix.send(message)

        // When the homeserver forgets its transaction ids (its 24 h window closed) and the same device resends a
        // day later
        try await server.forgetTransactionIDs()
        let later = MatrixClient(
            homeserver: MatrixHomeserver(baseURL: server.baseURL), login: me.account.userID,
            password: me.account.password,
            tokens: FileTokenStore(path: first.directory.url.appendingPathComponent("matrix-token").path),
            clock: ManualClock(start: Date().addingTimeInterval(25 * 3_600)), timeout: .seconds(20))
        let again = try await later.send(message)

        // And a new device (after a sign-out and sign-in) resends it too
        let newDevice = MatrixClient(
            homeserver: MatrixHomeserver(baseURL: server.baseURL), login: me.account.userID,
            password: me.account.password, timeout: .seconds(20))
        let third = try await newDevice.send(message)

        // Then the room holds it once, and both resends answer the stored message
        #expect(try await ben.messages(room, count: 1).map(\.body) == ["only once"])
        #expect(again.id == message.id)
        #expect(third.id == message.id)
    }
}
