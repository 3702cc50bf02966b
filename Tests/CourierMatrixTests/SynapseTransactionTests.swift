import Testing

/// What a homeserver does with a resent transaction id (`PUT …/send/m.room.message/{txnId}`): the only idempotency
/// Matrix offers, scoped to one room and one device. Courier's outbox resends with the message id as txnId.
@Suite struct SynapseTransactionTests {
    @Test func theSameTransactionTwiceStoresOneMessage() async throws {
        // Given Ben's message, sent once
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let first = try await ben.send(room, "hello", txnID: "t1")

        // When his device sends it again, as after a lost answer
        let second = try await ben.send(room, "hello", txnID: "t1")

        // Then the server answers the same event and I read it once
        #expect(second == first)
        #expect(try await me.messages(room).map(\.body) == ["hello"])
    }

    @Test func theSameTransactionWithOtherTextAnswersTheOriginalAndDropsTheText() async throws {
        // Given Ben's message, sent once
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let first = try await ben.send(room, "first draft", txnID: "t1")

        // When his device sends other text under the same transaction id
        let second = try await ben.send(room, "edited", txnID: "t1")

        // Then the answer is a success naming the original event — no conflict — and the new text is gone
        #expect(second == first)
        let messages = try await me.messages(room)
        #expect(messages.map(\.body) == ["first draft"])
        #expect(messages.map(\.eventID) == [first])
    }

    @Test func aNewTokenOfTheSameDeviceKeepsTheTransaction() async throws {
        // Given Ben's message, sent once
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let first = try await ben.send(room, "hello", txnID: "t1")

        // When he signs in again as the same device (a new access token) and resends
        let again = try await ben.login(deviceID: ben.account.deviceID)
        let second = try await again.send(room, "hello", txnID: "t1")

        // Then it is the same message
        #expect(again.account.accessToken != ben.account.accessToken)
        #expect(second == first)
        #expect(try await me.messages(room).map(\.body) == ["hello"])
    }

    @Test func aFreshLoginResendingTheTransactionStoresItTwice() async throws {
        // Given Ben's message, sent once
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let first = try await ben.send(room, "hello", txnID: "t1")

        // When he signs in afresh (a new device) and resends it under the same transaction id
        let newDevice = try await ben.login()
        let second = try await newDevice.send(room, "hello", txnID: "t1")

        // Then the server stores a second message: I read it twice
        #expect(newDevice.account.deviceID != ben.account.deviceID)
        #expect(second != first)
        #expect(try await me.messages(room).map(\.body) == ["hello", "hello"])
    }

    @Test func aTransactionIDIsScopedToItsRoom() async throws {
        // Given Ben's message in one room, and a second room with me
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let first = try await ben.send(room, "hello", txnID: "t1")
        let other = try await me.createRoom(name: "other", invite: [ben.userID])
        try await ben.join(other)

        // When he uses the same transaction id in the other room
        let second = try await ben.send(other, "hello", txnID: "t1")

        // Then that room gets a message of its own
        #expect(second != first)
        #expect(try await me.messages(other).map(\.eventID) == [second])
    }

    @Test func onlyTheSendingDeviceSeesItsTransactionID() async throws {
        // Given Ben's message
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        _ = try await ben.send(room, "hello", txnID: "courier-42")

        // When his device, his other device and I read the room
        let otherDevice = try await ben.login()
        let seenBySender = try await ben.messages(room)
        let seenByOtherDevice = try await otherDevice.messages(room)
        let seenByMe = try await me.messages(room)

        // Then the transaction id comes back to the sending device only: the echo an outbox can match
        #expect(seenBySender.map(\.transactionID) == ["courier-42"])
        #expect(seenByOtherDevice.map(\.transactionID) == [nil])
        #expect(seenByMe.map(\.transactionID) == [nil])
    }
}
