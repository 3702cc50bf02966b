import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// A send that returns means stored: the cache never keeps an echoed pending copy for chats opened offline.
@Suite struct CachingMessageRepositoryEchoTests {
    @Test func messagesEchoedAsGivenAreCachedAsSent() async throws {
        // Given a cache in front of a backend that echoes what it is sent
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        let repository = CachingMessageRepository(wrapping: FakeMessageRepository(reply: .asGiven), cache: cache)
        let date = Date(timeIntervalSince1970: 100)
        let one = Message(
            id: "m1", conversationID: "c1", senderID: "me", text: "one", timestamp: date, status: .sending)
        let two = Message(
            id: "m2", conversationID: "c1", senderID: "me", text: "two", timestamp: date.addingTimeInterval(1),
            status: .queued)

        // When one goes alone and one in a batch
        let sent = try await repository.send(one)
        let batch = try await repository.sendBatch([two])

        // Then both answers and the cache say sent, so a chat opened offline shows them sent
        #expect(sent.status == .sent)
        #expect(batch.map { try? $0.get().status } == [.sent])
        #expect(cache.messages(in: "c1").map(\.status) == [.sent, .sent])
    }
}
