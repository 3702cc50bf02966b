import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

private let start = Date(timeIntervalSince1970: 1_767_258_000)

private func thread(_ conversation: ConversationID, count: Int, status: MessageStatus = .delivered) -> [Message] {
    (1...count).map { index in
        Message(
            id: MessageID("\(conversation)-\(String(format: "%04d", index))"), conversationID: conversation,
            senderID: "ana", text: "message \(index)", timestamp: start.addingTimeInterval(Double(index)),
            status: status)
    }
}

@Suite struct MessageCacheTests {
    /// Loads every page of `conversation` online, newest first, as scrolling up would.
    private func scrollToTheTop(of conversation: ConversationID, through repository: CachingMessageRepository)
        async throws -> Int
    {
        var cursor: MessageCursor?
        var pages = 0
        while true {
            let page = try await repository.messages(in: conversation, before: cursor, limit: 50)
            pages += 1
            guard page.hasMore, let first = page.messages.first else { return pages }
            cursor = first.cursor
        }
    }

    @Test func aChatOpenedOfflineShowsWhatWasSeenOnline() async throws {
        // Given a chat whose newest page was seen online, and a message sent in it (kept as the outbox announced it)
        let backend = FakeMessageRepository()
        backend.seed(thread("c1", count: 80))
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        let repository = CachingMessageRepository(wrapping: backend, cache: cache)
        let online = try await repository.messages(in: "c1", before: nil, limit: 50)
        let sent = Message(
            id: MessageID("mine"), conversationID: "c1", senderID: "me", text: "on my way",
            timestamp: start.addingTimeInterval(500), status: .sent)
        cache.store([sent])

        // When the device goes offline and the chat is opened
        backend.fail(with: .offline)
        let offline = try await repository.messages(in: "c1", before: nil, limit: 50)

        // Then the newest messages show at once, the sent one included, with more to load
        #expect(offline.messages == Array(online.messages.dropFirst()) + [sent])
        #expect(offline.hasMore)
    }

    @Test func theCacheSurvivesARestart() async throws {
        // Given a chat read online through a cache on durable storage
        let backend = FakeMessageRepository()
        backend.seed(thread("c2", count: 3))
        let storage = InMemoryRecordStorage()
        let before = CachingMessageRepository(wrapping: backend, cache: try MessageCache(storage: storage))
        let online = try await before.messages(in: "c2", before: nil, limit: 50)

        // When the app restarts offline (a new cache opened on the stored records)
        backend.fail(with: .offline)
        let reopened = InMemoryRecordStorage(records: storage.records)
        let after = CachingMessageRepository(wrapping: backend, cache: try MessageCache(storage: reopened))
        let offline = try await after.messages(in: "c2", before: nil, limit: 50)

        // Then the whole conversation shows, and it is known to be complete, marked as the device's answer
        #expect(offline.messages == online.messages)
        #expect(!offline.hasMore)
        #expect(offline.isCached && !online.isCached)
    }

    @Test func eachConversationKeepsItsNewestFourPages() async throws {
        // Given a conversation of 300 messages scrolled to the top online
        let backend = FakeMessageRepository()
        backend.seed(thread("c1", count: 300))
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        let repository = CachingMessageRepository(wrapping: backend, cache: cache)
        #expect(try await scrollToTheTop(of: "c1", through: repository) == 6)

        // When it is scrolled offline
        backend.fail(with: .offline)
        var pages: [MessagePage] = []
        var cursor: MessageCursor?
        var stoppedBy: DeliveryError?
        while stoppedBy == nil {
            do {
                let page = try await repository.messages(in: "c1", before: cursor, limit: 50)
                pages.append(page)
                cursor = page.messages.first?.cursor
            } catch {
                stoppedBy = error
            }
        }

        // Then the newest 200 show in four pages; the fifth needs the network
        #expect(cache.count == 200)
        #expect(pages.count == 4)
        #expect(pages.first?.messages.last?.text == "message 300")
        #expect(pages.last?.messages.first?.text == "message 101")
        #expect(stoppedBy == .offline)
    }

    @Test func pastTheTotalTheLeastRecentlyUsedConversationIsDropped() async throws {
        // Given a cache of 30 messages at most, holding c1, c2 and c3 (10 each), c1 opened again since
        let backend = FakeMessageRepository()
        for id in ["c1", "c2", "c3", "c4"] { backend.seed(thread(ConversationID(id), count: 10)) }
        let storage = InMemoryRecordStorage()
        let cache = try MessageCache(
            storage: storage, limits: MessageCacheLimits(messagesPerConversation: 10, totalMessages: 30))
        let repository = CachingMessageRepository(wrapping: backend, cache: cache)
        for id in ["c1", "c2", "c3", "c1"] {
            _ = try await repository.messages(in: ConversationID(id), before: nil, limit: 50)
        }

        // When c4 is read
        _ = try await repository.messages(in: "c4", before: nil, limit: 50)

        // Then c2, used least recently, was dropped; the total stays within 30, after a restart too
        #expect(cache.count == 30)
        #expect(cache.messages(in: "c2").isEmpty)
        #expect(cache.messages(in: "c1").count == 10)
        let reopened = try MessageCache(
            storage: InMemoryRecordStorage(records: storage.records),
            limits: MessageCacheLimits(messagesPerConversation: 10, totalMessages: 30))
        #expect(reopened.messages(in: "c2").isEmpty)
        #expect(reopened.count == 30)
    }

    @Test func pendingMessagesAreNeverHeldSoEvictionCannotTouchThem() throws {
        // Given a cache
        let cache = try MessageCache(storage: InMemoryRecordStorage())

        // When queued, sending and failed messages are offered, then a delivered one
        cache.store(thread("c1", count: 2, status: .queued))
        cache.store(thread("c1", count: 2, status: .failed))
        cache.store(thread("c1", count: 2, status: .sending))
        cache.store(thread("c1", count: 1, status: .sent))

        // Then only the delivered one is held: pending ones live in the outbox alone
        #expect(cache.messages(in: "c1").map(\.status) == [.sent])
    }

    @Test func aLaterStatusIsKeptAndNeverMovesBack() throws {
        // Given a message held as read
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(thread("c1", count: 1, status: .read))

        // When an older copy (sent) arrives
        cache.store(thread("c1", count: 1, status: .sent))

        // Then it stays read, once
        #expect(cache.messages(in: "c1").map(\.status) == [.read])
    }

    @Test func errorsThatCachedDataCannotHelpAreNotMasked() async throws {
        // Given a conversation seen online, then an expired sign-in
        let backend = FakeMessageRepository()
        backend.seed(thread("c1", count: 5))
        let repository = CachingMessageRepository(
            wrapping: backend, cache: try MessageCache(storage: InMemoryRecordStorage()))
        _ = try await repository.messages(in: "c1", before: nil, limit: 50)
        backend.fail(with: .unauthorized)

        // When the chat is opened, and a never-seen chat is opened offline
        await #expect(throws: DeliveryError.unauthorized) {
            try await repository.messages(in: "c1", before: nil, limit: 50)
        }
        backend.fail(with: .offline)

        // Then the sign-in error shows, and the unknown chat says offline
        await #expect(throws: DeliveryError.offline) {
            try await repository.messages(in: "c9", before: nil, limit: 50)
        }
    }

    @Test func unreadableRecordsAreSkippedAndTheRestIsKept() throws {
        // Given stored records with garbage and a record from a future version among them
        let storage = InMemoryRecordStorage()
        try MessageCache(storage: storage).store(thread("c1", count: 2))
        let future = Data(#"{"v":9,"op":"put","c":"c1"}"#.utf8)
        let records = [Data("garbage".utf8)] + storage.records + [future]

        // When the cache opens
        let cache = try MessageCache(storage: InMemoryRecordStorage(records: records))

        // Then the readable messages are there
        #expect(cache.messages(in: "c1").map(\.text) == ["message 1", "message 2"])
    }

    @Test func aLogOfDeadRecordsIsCompactedToWhatIsHeld() throws {
        // Given a message whose status is updated many times
        let storage = InMemoryRecordStorage()
        let cache = try MessageCache(storage: storage)
        cache.store(thread("c1", count: 3, status: .sent))
        for _ in 0..<600 { cache.store(thread("c1", count: 1, status: .delivered)) }

        // Then the log was compacted, and reopening it gives the same messages
        #expect(storage.compactions >= 1)
        #expect(storage.records.count < 100)
        let reopened = try MessageCache(storage: InMemoryRecordStorage(records: storage.records))
        #expect(reopened.messages(in: "c1") == cache.messages(in: "c1"))
    }
}
