import CourierData
import CourierDomain
import Foundation
import Testing

/// A conversation backend that can be switched to failing.
private final class SwitchableConversations: ConversationRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let all: [Conversation]
    private var failure: DeliveryError?

    init(_ conversations: [Conversation]) { all = conversations }

    func fail(with error: DeliveryError?) { lock.withLock { failure = error } }

    func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int) async throws
        -> ConversationPage
    {
        try lock.withLock {
            if let failure { throw failure }
            let start = cursor.map { cursor in (all.firstIndex { $0.id == cursor.id } ?? all.count - 1) + 1 } ?? 0
            let page = Array(all[start...].prefix(limit))
            return ConversationPage(conversations: page, hasMore: start + page.count < all.count)
        }
    }
}

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
        let backend = SwitchableConversations(five)
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

        // Then it gets what it saw, in the list's order, and the end where what it saw ends
        #expect(page1 == ConversationPage(conversations: Array(five[0..<2]), hasMore: true))
        #expect(page2 == ConversationPage(conversations: Array(five[2..<4]), hasMore: false))
    }

    @Test func nothingCachedOrANonRetryableErrorIsThrownAsIs() async throws {
        let backend = SwitchableConversations(five)
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

@Suite struct ConversationCacheTests {
    @Test func repeatedUpdatesCompactToOneRecordPerConversationAndKeepTheNewest() throws {
        // Given a cache that sees the same two conversations change 100 times
        let storage = InMemoryRecordStorage()
        let cache = try ConversationCache(storage: storage)
        for round in 0..<100 {
            cache.store([
                Conversation(
                    id: "c1", participantIDs: ["me"], lastActivity: Date(timeIntervalSince1970: Double(round))),
                Conversation(id: "c2", participantIDs: ["me"], lastActivity: Date(timeIntervalSince1970: 0)),
            ])
        }

        // When it is reopened
        let reopened = try ConversationCache(storage: InMemoryRecordStorage(records: storage.records))

        // Then the log was compacted and holds the newest state of each
        #expect(storage.compactions > 0)
        #expect(storage.records.count < 2 * 2 + 64 + 2)
        #expect(reopened.count == 2)
        #expect(reopened.page(after: nil, limit: 5)?.conversations.first?.lastActivity
            == Date(timeIntervalSince1970: 99))
    }
}
