import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// A send passes through the cache untouched: what its answer means (at least `sent`, whatever the backend echoed)
/// is the outbox's to say, and the outbox keeps in the cache what it shows (`CourierClientAcknowledgementTests`).
@Suite struct CachingMessageRepositoryEchoTests {
    @Test func sendsPassThroughAndLeaveTheCacheToTheOutbox() async throws {
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

        // Then the answers are the backend's, as given, and the cache holds nothing of them
        #expect(sent == one)
        #expect(batch.map { try? $0.get() } == [two])
        #expect(cache.messages(in: "c1").isEmpty)
    }
}
