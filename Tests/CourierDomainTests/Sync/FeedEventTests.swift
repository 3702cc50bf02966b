import CourierDomain
import Foundation
import Testing

/// Which conversation a feed event is about, whatever happened.
@Suite("FeedEvent")
struct FeedEventTests {
    private let time = Date(timeIntervalSince1970: 1_000)

    @Test("a message event is about the message's conversation")
    func messageConversation() {
        let message = Message(
            id: "m1", conversationID: "c7", senderID: "ana", text: "hi", timestamp: time, status: .sent)

        let event = FeedEvent(position: FeedPosition(1), change: .message(message))

        #expect(event.conversationID == "c7")
    }

    @Test("a receipt event is about the receipt's conversation")
    func receiptConversation() {
        let receipt = Receipt(
            conversationID: "c8", userID: "ana", kind: .read, upTo: MessageCursor(timestamp: time, id: "m1"))

        let event = FeedEvent(position: FeedPosition(2), change: .receipt(receipt))

        #expect(event.conversationID == "c8")
    }

    @Test("a conversation event is about that conversation")
    func conversationConversation() {
        let conversation = Conversation(id: "c9", participantIDs: ["me", "ana"], lastActivity: time)

        let event = FeedEvent(position: FeedPosition(3), change: .conversation(conversation))

        #expect(event.conversationID == "c9")
    }
}
