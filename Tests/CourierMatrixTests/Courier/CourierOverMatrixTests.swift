import CourierData
import CourierDomain
import CourierMatrix
import CourierTestSupport
import Foundation
import Testing

/// Courier's promises on a real Synapse, with a plain HTTP client nobody here wrote playing the other person.
@MainActor
@Suite(.removesTemporaryDirectories, .timeLimit(.minutes(5)))
struct CourierOverMatrixTests {
    @Test func messagesTypedHereReachTheOtherPersonOnceInOrderAndTheirsArriveLiveWithTheirReadMarker() async throws {
        // Given me on Courier and Ben on another client, in one room
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account)

        // When I type three messages
        let typed = try ["one", "two", "three"].map {
            try courier.client.outbox.compose(text: $0, in: ConversationID(room))
        }
        #expect(await courier.wait { courier.client.outbox.pending.isEmpty })

        // Then Ben reads them once each, in the order typed, each carrying Courier's id
        let seen = try await ben.messages(room, count: 3)
        #expect(seen.map(\.body) == ["one", "two", "three"])
        #expect(seen.map { $0.content["courier.id"] as? String } == typed.map(\.id.rawValue))

        // And what Ben writes arrives by itself, after mine, once
        let reply = try await ben.send(room, "see you", txnID: "reply-1")
        #expect(await courier.wait { courier.shown(room).contains { $0.text == "see you" } })
        #expect(courier.shown(room).map(\.text) == ["one", "two", "three", "see you"])

        // And when Ben reads up to his reply, my three read "read" (a homeserver has no "delivered")
        try await ben.read(room, reply)
        #expect(
            await courier.wait {
                courier.shown(room).filter { $0.senderID == courier.user }.allSatisfy { $0.status == .read }
            })
    }

    @Test func aMessageRedactedOnMyOtherDeviceOrByItsSenderLeavesThisDevice() async throws {
        // Given me on Courier with a message of mine and one of Ben's shown
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account)
        let mine = try courier.client.outbox.compose(text: "typo", in: ConversationID(room))
        #expect(await courier.wait { courier.client.outbox.pending.isEmpty })
        let bens = try await ben.send(room, "wrong chat", txnID: "wrong-1")
        _ = try await ben.send(room, "hello", txnID: "hello-1")
        #expect(await courier.wait { courier.shown(room).count == 3 })

        // When my phone (another device of mine) redacts my message, and Ben redacts his
        let phone = try await me.login()
        let myEvent = try #require(try await ben.messages(room, count: 3).first { $0.body == "typo" }?.eventID)
        try await phone.redact(room, myEvent, txnID: "redact-1")
        try await ben.redact(room, bens, txnID: "redact-2")

        // Then both leave this device, by their Courier ids, and Ben's greeting stays
        #expect(await courier.wait { courier.shown(room).map(\.text) == ["hello"] })
        #expect(!courier.shown(room).contains { $0.id == mine.id })
    }

    @Test func aMessageSentBeforeARelaunchAndRedactedAfterItLeavesThisDeviceByItsEventID() async throws {
        // Given a message of mine sent and held, then the app relaunched (its homeserver client knows no event yet)
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let before = try await CourierOverMatrix(server, as: me.account)
        let mine = try before.client.outbox.compose(text: "typo", in: ConversationID(room))
        #expect(await before.wait { before.client.outbox.pending.isEmpty && before.shown(room).count == 1 })
        before.client.close()
        let courier = try await CourierOverMatrix(server, as: me.account, directory: before.directory)
        #expect(courier.shown(room).map(\.id) == [mine.id])
        #expect(await courier.wait { courier.client.syncEngine?.isLive == true })

        // When my phone redacts it (the redaction names the event, not Courier's id)
        let phone = try await me.login()
        let event = try #require(try await ben.messages(room, count: 1).first { $0.body == "typo" }?.eventID)
        try await phone.redact(room, event, txnID: "redact-after-relaunch")

        // Then it leaves this device: the cache kept the event id beside Courier's id
        #expect(await courier.wait { courier.shown(room).isEmpty })
    }

    @Test func aReadReceiptMarksTheEventItNamesWhateverTheDeviceKnowsOfItsPosition() async throws {
        // Given two messages of Ben's, the newer one named by its event id only (as a device that relaunched holds it:
        // no position this client could look up)
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account)
        let older = try await ben.send(room, "first", txnID: "first-1")
        let newer = try await ben.send(room, "second", txnID: "second-1")
        let since = try await ben.sync().nextBatch

        // When the receipt goes, its position unknown to the homeserver (an hour before both, an id it never saw)
        try await courier.matrix.mark(
            Receipt(
                conversationID: ConversationID(room), userID: courier.user, kind: .read,
                upTo: MessageCursor(timestamp: Date().addingTimeInterval(-3_600), id: "unknown"),
                upToServerID: newer))

        // Then Ben sees my read marker on the event it named, not on the older one
        let synced = try #require(SyncRoom(room, in: try await ben.sync(since: since, timeout: 5_000).json))
        #expect(synced.receipts[newer]?["m.read"]?[courier.user.rawValue] != nil)
        #expect(synced.receipts[older] == nil)
    }

    @Test func twoMessagesTypedOfflineBothArriveOnceInOrderWhenTheDeviceIsBack() async throws {
        // Given me offline, with the manual policy (Send All)
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .manual)
        courier.connectivity.set(online: false)

        // When I type two messages, and the device is back and I press Send All
        _ = try courier.client.outbox.compose(text: "first", in: ConversationID(room))
        _ = try courier.client.outbox.compose(text: "second", in: ConversationID(room))
        #expect(courier.client.outbox.pending.map(\.status) == [.queued, .queued])
        courier.connectivity.set(online: true)
        await courier.client.sendAll()

        // Then both are there, once, in order
        #expect(courier.client.outbox.pending.isEmpty)
        #expect(try await ben.messages(room, count: 2).map(\.body) == ["first", "second"])
    }

    @Test func theQueueFlushesByItselfTheMomentTheNetworkIsBack() async throws {
        // Given a queue of three built offline, with the automatic policy
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account, policy: .automatic)
        courier.connectivity.set(online: false)
        for text in ["a", "b", "c"] { _ = try courier.client.outbox.compose(text: text, in: ConversationID(room)) }

        // When the network changes back (no app restart, no timer to wait out)
        courier.connectivity.set(online: true)

        // Then the queue empties by itself, in order
        #expect(await courier.wait(until: { courier.client.outbox.pending.isEmpty }, attempts: 500))
        #expect(try await ben.messages(room, count: 3).map(\.body) == ["a", "b", "c"])
    }

    @Test func theSameIdWithOtherTextIsAConflictNeverASilentDrop() async throws {
        // Given a message the homeserver stored (a first attempt: answered at once, nothing else could be stored under
        // its id)
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account)
        let first = Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: ConversationID(room),
            senderID: courier.user, text: "version A", timestamp: Date(), status: .sending)
        let answered = try await courier.matrix.send(first)
        #expect(answered.status == .sent)

        // When the same id goes again after an attempt whose outcome was unknown, once with other text (the
        // homeserver keeps the first body under a txnId) and once with the same
        var unknown = first
        unknown.lastError = .unanswered
        var edited = unknown
        edited.text = "version B"

        // Then the other text is a conflict; the same text is the stored event, read back at the homeserver's time;
        // and the room holds version A once
        await #expect(throws: DeliveryError.conflict) { try await courier.matrix.send(edited) }
        let readBack = try await courier.matrix.send(unknown)
        let held = try await ben.messages(room, count: 1)
        #expect(held.map(\.body) == ["version A"])
        #expect(readBack.id == first.id && readBack.text == "version A" && readBack.status == .sent)
        #expect(Self.milliseconds(readBack.timestamp) == held.first?.originServerTS)
    }

    @Test func aMessageTypedOfflineTakesTheHomeserversPlaceAfterWhatOthersWroteMeanwhile() async throws {
        // Given Ben's greeting on my device, then me offline with a message typed, and Ben writing after it
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account)
        #expect(await courier.wait { courier.client.syncEngine?.isLive == true })
        _ = try await ben.send(room, "hello", txnID: "hello-1")
        #expect(await courier.wait { courier.shown(room).map(\.text) == ["hello"] })
        courier.connectivity.set(online: false)
        _ = try courier.client.outbox.compose(text: "typed offline", in: ConversationID(room))
        _ = try await ben.send(room, "meanwhile", txnID: "meanwhile-1")

        // When the device is back and the message goes (its send is answered with an event id only)
        courier.connectivity.set(online: true)
        #expect(await courier.wait { courier.client.outbox.pending.isEmpty })

        // Then the device shows what the homeserver holds, in its order and at its times: mine after Ben's, moved
        // there by its echo
        let held = try await ben.messages(room, count: 3)
        #expect(held.map(\.body) == ["hello", "meanwhile", "typed offline"])
        #expect(
            await courier.wait {
                courier.shown(room).map(\.text) == held.map(\.body)
                    && courier.shown(room).map { Self.milliseconds($0.timestamp) } == held.map(\.originServerTS)
            })
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }

    @Test func aCatchUpAfterMoreMissedMessagesThanATimelineHoldsBackfillsEveryOneOnceInOrder() async throws {
        // Given me in the background, with timelines of 10 events per /sync
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(
            server, as: me.account, sync: SyncSettings(batchLimit: 10, liveWait: .seconds(5)))
        #expect(await courier.wait { courier.client.syncEngine?.isLive == true })
        courier.client.enterBackground()

        // When Ben writes 45 messages meanwhile
        let texts = (1...45).map { "missed \($0)" }
        for (index, text) in texts.enumerated() { _ = try await ben.send(room, text, txnID: "gap-\(index)") }

        // Then on return every one arrives, once, in Ben's order
        courier.client.enterForeground()
        #expect(await courier.wait { courier.shown(room).count == 45 })
        #expect(courier.shown(room).map(\.text) == texts)
        #expect(Set(courier.shown(room).map(\.id)).count == 45)
    }

    @Test func aHiddenConversationLeavesMyListAloneAndComesBackWithTheNextMessage() async throws {
        // Given a room in my list
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let courier = try await CourierOverMatrix(server, as: me.account)
        let id = ConversationID(room)
        #expect(
            try await courier.matrix.conversations(of: courier.user, after: nil, limit: 50).conversations.map(\.id) == [
                id
            ])

        // When I hide it, it leaves my list (Ben keeps his)
        try await courier.matrix.hideConversation(id)
        #expect(try await courier.matrix.conversations(of: courier.user, after: nil, limit: 50).conversations.isEmpty)

        // And when Ben writes, it is back
        _ = try await ben.send(room, "still there?", txnID: "back-1")
        #expect(await courier.wait { courier.shown(room).contains { $0.text == "still there?" } })
        #expect(
            try await courier.matrix.conversations(of: courier.user, after: nil, limit: 50).conversations.map(\.id) == [
                id
            ])
    }

    @Test func theOtherPersonsNameAndPresenceAreTheHomeserversAndTheListCarriesItsUnreadCount() async throws {
        // Given Ben, who named himself, is online and wrote twice
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        try await ben.setDisplayName("Ben Bennett")
        try await ben.setPresence("online")
        _ = try await ben.send(room, "one", txnID: "u-1")
        _ = try await ben.send(room, "two", txnID: "u-2")
        let courier = try await CourierOverMatrix(server, as: me.account)
        let benID = UserID(ben.userID)

        // Then Courier shows his name and his presence as the homeserver has them, and the room's unread count
        #expect(try await courier.matrix.users([benID]).map(\.displayName) == ["Ben Bennett"])
        #expect(try await courier.matrix.presence([benID]).map(\.isOnline) == [true])
        let row = try await courier.matrix.conversations(of: courier.user, after: nil, limit: 10).conversations.first
        #expect(row?.unreadCount == 2)
        #expect(row?.lastMessage?.text == "two")
        #expect(Set(row?.participantIDs ?? []) == [courier.user, benID])
    }
}
