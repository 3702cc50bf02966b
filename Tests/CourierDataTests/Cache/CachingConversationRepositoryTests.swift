import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@Suite struct CachingConversationRepositoryTests {
    /// Five conversations, c1 the most recent.
    private let five = (1...5).map { index in
        Conversation(
            id: ConversationID("c\(index)"), participantIDs: ["me", UserID("u\(index)")],
            lastActivity: Date(timeIntervalSince1970: 1_000_000 - Double(index) * 60))
    }

    @Test func pagesSeenOnlineAreServedOfflineAfterAReopenInTheSameOrder() async throws {
        // Given two pages loaded online, kept in a storage that is then reopened (a relaunch)
        let storage = InMemoryRecordStorage()
        let backend = FakeConversationRepository(five)
        let online = CachingConversationRepository(wrapping: backend, cache: try ConversationCache(storage: storage))
        let first = try await online.conversations(of: "me", after: nil, limit: 2)
        let last = try #require(first.conversations.last)
        _ = try await online.conversations(
            of: "me", after: ConversationCursor(lastActivity: last.lastActivity, id: last.id), limit: 2)
        backend.fail(with: .offline)
        let copy = InMemoryRecordStorage(records: storage.records)
        let reopened = CachingConversationRepository(wrapping: backend, cache: try ConversationCache(storage: copy))

        // When the list loads offline, page by page
        let page1 = try await reopened.conversations(of: "me", after: nil, limit: 2)
        let end = try #require(page1.conversations.last)
        let cursor = ConversationCursor(lastActivity: end.lastActivity, id: end.id)
        let page2 = try await reopened.conversations(of: "me", after: cursor, limit: 2)

        // Then it gets what it saw, in the list's order, and the end where what it saw ends — each page marked as
        // the cache's, so a screen asks the backend again once it answers
        #expect(page1 == ConversationPage(conversations: Array(five[0..<2]), hasMore: true, isCached: true))
        #expect(page2 == ConversationPage(conversations: Array(five[2..<4]), hasMore: false, isCached: true))
    }

    @Test func nothingCachedOrANonRetryableErrorIsThrownAsIs() async throws {
        let backend = FakeConversationRepository(five)
        let repository = CachingConversationRepository(
            wrapping: backend, cache: try ConversationCache(storage: InMemoryRecordStorage()))
        backend.fail(with: .offline)
        await #expect(throws: DeliveryError.offline) {
            try await repository.conversations(of: "me", after: nil, limit: 2)
        }
        backend.fail(with: nil)
        _ = try await repository.conversations(of: "me", after: nil, limit: 2)
        backend.fail(with: .unauthorized)
        await #expect(throws: DeliveryError.unauthorized) {
            try await repository.conversations(of: "me", after: nil, limit: 2)
        }
    }
}
