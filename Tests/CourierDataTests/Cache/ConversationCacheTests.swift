import CourierData
import CourierDomain
import Foundation
import Testing

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
        #expect(
            reopened.page(after: nil, limit: 5)?.conversations.first?.lastActivity
                == Date(timeIntervalSince1970: 99))
    }
}
