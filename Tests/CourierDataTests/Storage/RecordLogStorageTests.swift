import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@Suite(.removesTemporaryDirectories) struct RecordLogStorageTests {
    @Test func recordsAppendedSurviveAReopenAndAreHandedOutOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("writes.log")
        let first = try RecordLogStorage(path: path)
        try first.append([Data("one".utf8), Data("two".utf8)])
        try first.append([Data("three".utf8)])
        first.close()

        let reopened = try RecordLogStorage(path: path)
        #expect(try reopened.loadRecords().map { String(decoding: $0, as: UTF8.self) } == ["one", "two", "three"])
        #expect(try reopened.loadRecords().isEmpty, "the owner keeps the records after the first load")
        #expect(reopened.report.isClean)
    }

    @Test func compactionKeepsOnlyTheLiveRecords() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("messages.log")
        let storage = try RecordLogStorage(path: path)
        try storage.append((0..<50).map { Data("dead \($0)".utf8) })
        try storage.compact(keeping: [Data("live".utf8)])
        storage.close()
        #expect(try RecordLogStorage(path: path).loadRecords().map { String(decoding: $0, as: UTF8.self) } == ["live"])
    }

    @Test func aTornTailIsReportedAndTheGoodRecordsKept() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("writes.log")
        let storage = try RecordLogStorage(path: path)
        try storage.append([Data("kept".utf8), Data("torn".utf8)])
        storage.close()
        let url = URL(fileURLWithPath: path)
        try Data(try Data(contentsOf: url).withoutZeroTail.dropLast(2)).write(to: url)

        let reopened = try RecordLogStorage(path: path)
        #expect(try reopened.loadRecords().map { String(decoding: $0, as: UTF8.self) } == ["kept"])
        #expect(!reopened.report.isClean)
        #expect(reopened.report.truncatedBytes > 0)
    }
}

@MainActor
@Suite(.removesTemporaryDirectories) struct RecordLogBackendJournalTests {
    @Test func eventsReplayInOrderAfterAReopen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("backend.log")
        let message = Message(
            id: "m1", conversationID: "c2", senderID: "me", text: "hello",
            timestamp: Date(timeIntervalSince1970: 1_000), status: .sent)
        let journal = try RecordLogBackendJournal(path: path)
        try journal.append([.messageStored(message), .displayNameChanged(user: "me", name: "Marta")])
        journal.close()

        let reopened = try RecordLogBackendJournal(path: path)
        #expect(try reopened.load() == [.messageStored(message), .displayNameChanged(user: "me", name: "Marta")])
    }
}
