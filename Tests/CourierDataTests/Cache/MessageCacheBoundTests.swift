import CourierData
import CourierDomain
import Foundation
import Testing

/// The message cache's total bound at its edge: one message past it drops the least recently used conversation.
@Suite struct MessageCacheBoundTests {
    private let start = Date(timeIntervalSince1970: 1_767_258_000)

    private func delivered(_ conversation: ConversationID, _ index: Int) -> Message {
        Message(
            id: MessageID("\(conversation.rawValue)-\(index)"), conversationID: conversation, senderID: "ana",
            text: "hello \(index)", timestamp: start.addingTimeInterval(Double(index)), status: .sent)
    }

    @Test func oneMessagePastTheTotalDropsTheLeastRecentlyUsedConversation() throws {
        // Given a cache of at most 30 messages holding exactly 30: c1, c2 and c3 with 10 each
        let cache = try MessageCache(
            storage: InMemoryRecordStorage(),
            limits: MessageCacheLimits(messagesPerConversation: 20, totalMessages: 30))
        for conversation: ConversationID in ["c1", "c2", "c3"] {
            cache.store((0..<10).map { delivered(conversation, $0) })
        }
        #expect(cache.count == 30)

        // When one more message arrives in c3
        cache.store([delivered("c3", 10)])

        // Then c1, used least recently, was dropped to stay within the bound
        #expect(cache.messages(in: "c1").isEmpty)
        #expect(cache.count == 21)
    }
}
