import CourierDomain
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// Data directories written before every store moved to binary bodies keep opening: the write queue's and the
/// caches' JSON records of format 1 (the bytes below are exactly what those builds wrote) are read, and a
/// compaction rewrites them in the binary layout.
@Suite struct LegacyRecordMigrationTests {
    static let writes = [
        #"{"attempts":0,"createdAt":785000000.25,"id":"w1","key":"displayName","kind":"profile.name","#
            + #""operation":"put","payload":"eyJuYW1lIjoiQW5hIn0=","version":1}"#,
        #"{"attempts":0,"createdAt":785000001.25,"id":"w2","key":"displayName","kind":"profile.name","#
            + #""operation":"put","payload":"eyJuYW1lIjoiQW5uYSJ9","replaces":"w1","version":1}"#,
        #"{"attempts":1,"id":"w2","lastError":{"server":{"code":502}},"operation":"attempt","version":1}"#,
        #"{"attempts":0,"createdAt":785000002.25,"id":"w3","kind":"rating","operation":"put","payload":"NQ==","#
            + #""version":1}"#,
        #"{"id":"w3","operation":"remove","reason":"delivered","version":1}"#,
    ].map { Data($0.utf8) }

    static let messages = [
        #"{"thumbURL":"https:\/\/x\/t.jpg","text":"hello “there”","op":"put","mediaURL":"https:\/\/x\/p.jpg","#
            + #""v":1,"sender":"ana","status":"read","id":"m1","c":"c1","ts":785000100.5}"#,
        #"{"sender":"me","id":"m2","status":"delivered","text":"hi","op":"put","ts":785000105.5,"c":"c1","v":1}"#,
        #"{"op":"start","v":1,"c":"c1"}"#,
        #"{"text":"gone","op":"put","sender":"bo","v":1,"status":"sent","id":"m3","c":"c2","ts":785000100.5}"#,
        #"{"c":"c2","op":"drop","v":1}"#,
    ].map { Data($0.utf8) }

    static let conversations = [
        #"{"activity":785000100.5,"id":"c1","last":{"c":"c1","id":"m1","mediaURL":"https:\/\/x\/p.jpg","#
            + #""op":"put","sender":"ana","status":"read","text":"hello “there”","thumbURL":"https:\/\/x\/t.jpg","#
            + #""ts":785000100.5,"v":1},"members":["me","ana"],"name":"Ana","unread":2,"v":1}"#,
        #"{"activity":785000040.5,"id":"c2","members":["me","bo","cy"],"unread":0,"v":1}"#,
    ].map { Data($0.utf8) }

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

    static let hello = Message(
        id: "m1", conversationID: "c1", senderID: "ana", text: "hello “there”", timestamp: at(785_000_100.5),
        status: .read, media: MediaAttachment(url: "https://x/p.jpg", thumbnailURL: "https://x/t.jpg"))

    @Test func anOldWriteQueueLogOpensWithItsWrites() throws {
        // Given a write queue log of format 1: two coalesced writes, a failed attempt, a delivered write
        let journal = try WriteQueueJournal(storage: InMemoryRecordStorage(records: Self.writes), logger: .silent)

        // Then the queue holds the newest write, with its failed attempt, and nothing was skipped
        #expect(journal.skippedRecords == 0)
        #expect(
            journal.all == [
                PendingWrite(
                    id: "w2", kind: "profile.name", key: "displayName", payload: Data(#"{"name":"Anna"}"#.utf8),
                    createdAt: Self.at(785_000_001.25), attempts: 1, lastError: .server(code: 502))
            ])
    }

    @Test func anOldMessageCacheLogOpensWithItsMessages() throws {
        // Given a message cache log of format 1: a conversation held back to its start, and one dropped
        let cache = try MessageCache(storage: InMemoryRecordStorage(records: Self.messages))

        // Then the held conversation pages as before, from its start, and the dropped one is gone
        let second = Message(
            id: "m2", conversationID: "c1", senderID: "me", text: "hi", timestamp: Self.at(785_000_105.5),
            status: .delivered)
        #expect(
            cache.page(in: "c1", before: nil, limit: 10) == MessagePage(messages: [Self.hello, second], hasMore: false))
        #expect(cache.messages(in: "c2") == [])
        #expect(cache.count == 2)
    }

    @Test func anOldConversationCacheLogOpensWithItsConversations() throws {
        let cache = try ConversationCache(storage: InMemoryRecordStorage(records: Self.conversations))
        #expect(
            cache.page(after: nil, limit: 10)
                == ConversationPage(
                    conversations: [
                        Conversation(
                            id: "c1", participantIDs: ["me", "ana"], name: "Ana", lastMessage: Self.hello,
                            lastActivity: Self.at(785_000_100.5), unreadCount: 2),
                        Conversation(
                            id: "c2", participantIDs: ["me", "bo", "cy"], lastActivity: Self.at(785_000_040.5)),
                    ],
                    hasMore: false))
    }

    @Test func oldAndNewRecordsInOneLogReadTogether() throws {
        // Given an old message cache log that a new build appended to
        let storage = InMemoryRecordStorage(records: Self.messages)
        let cache = try MessageCache(storage: storage)
        let newer = Message(
            id: "m4", conversationID: "c1", senderID: "ana", text: "new", timestamp: Self.at(785_000_200),
            status: .sent)
        cache.store([newer])

        // When it is opened again
        let reopened = try MessageCache(storage: InMemoryRecordStorage(records: storage.records))

        // Then both the old records and the new one are there
        #expect(reopened.messages(in: "c1").map(\.id) == ["m1", "m2", "m4"])
        #expect(reopened.messages(in: "c1").last == newer)
    }

    @Test func aCompactionRewritesOldRecordsInTheBinaryLayout() throws {
        // Given an old write queue log long enough to be compacted when opened: 40 writes queued and delivered,
        // then the one still queued
        var records: [Data] = []
        for index in 0..<40 {
            records.append(
                Data(
                    (#"{"attempts":0,"createdAt":785000000,"id":"d\#(index)","kind":"k","operation":"put","#
                        + #""payload":"","version":1}"#).utf8))
            records.append(Data(#"{"id":"d\#(index)","operation":"remove","reason":"delivered","version":1}"#.utf8))
        }
        let storage = InMemoryRecordStorage(records: records + Self.writes)

        // When the queue opens it
        let journal = try WriteQueueJournal(storage: storage, logger: .silent)

        // Then the log was rewritten as one binary put per queued write, which opens to the same queue
        #expect(storage.compactions == 1)
        #expect(storage.records.count == 1)
        #expect(storage.records.allSatisfy { !LegacyJSONRecord.isJSON($0) })
        #expect(try WriteQueueJournal(storage: storage, logger: .silent).all == journal.all)
        #expect(journal.all.map(\.id) == ["w2"])
    }

    @Test func anOldRecordOfAnUnknownVersionIsSkippedNotMisread() throws {
        // Given JSON records that look whole but carry a version no build wrote
        let write = #"{"version":9,"operation":"put","id":"w9","kind":"k","payload":"","createdAt":1,"attempts":0}"#
        let message = #"{"v":7,"op":"put","c":"c1","id":"m9","sender":"x","text":"t","ts":1,"status":"sent"}"#

        // Then opening skips them, and counts the skipped write
        let journal = try WriteQueueJournal(
            storage: InMemoryRecordStorage(records: [Data(write.utf8)]), logger: .silent)
        #expect(journal.skippedRecords == 1)
        #expect(journal.count == 0)
        #expect(try MessageCache(storage: InMemoryRecordStorage(records: [Data(message.utf8)])).count == 0)
    }
}
