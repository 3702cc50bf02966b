import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The feed, markers and unread counts after a restart: the backend rebuilds them from its journal, positions and
/// trims included, so a device's cursor means the same before and after.
@MainActor
@Suite("InMemoryChatBackend: feed across restarts")
struct InMemoryChatBackendFeedJournalTests {
    private static let users: [UserID] = ["me", "ana", "ben"]

    /// A conversation among me, Ana and Ben: messages both ways, receipts, a trim, and more after it.
    private func converse(on backend: InMemoryChatBackend) throws {
        try backend.send(BackendFixtures.message("m0", at: 0))
        try backend.send(BackendFixtures.message("m1", at: 1))
        try backend.receive(BackendFixtures.message("b1", in: "c2", at: 2, from: "ben"))
        try backend.receive(BackendFixtures.message("b2", in: "c2", at: 3, from: "ben"))
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m0"))
        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m1"))
        try backend.markReceipt(try backend.receipt(.read, by: "me", upTo: "b1"))
        try backend.trimFeeds()
        try backend.receive(BackendFixtures.message("a1", at: 4, from: "ana"))
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m1"))
    }

    /// Everything a user of the backend could notice about the feeds, markers, unread counts and statuses.
    private func observed(_ backend: InMemoryChatBackend) throws -> [String] {
        var lines: [String] = []
        for user in Self.users {
            let end = backend.feedEndPosition(for: user)
            let kept = backend.keptEventCount(for: user)
            let keptFrom = FeedPosition(try #require(end.number) - UInt64(kept))
            lines.append("\(user) end \(end) kept \(kept)")
            lines.append("\(user) feed \(try backend.feedLines(for: user, after: keptFrom) ?? ["expired"])")
            lines.append("\(user) from start \(try backend.feedLines(for: user) ?? ["expired"])")
            for conversation in backend.conversationIDs {
                let unread = backend.conversation(conversation, for: user)?.unreadCount ?? -1
                let read = backend.marker(.read, of: user, in: conversation)?.rawValue ?? "-"
                let delivered = backend.marker(.delivered, of: user, in: conversation)?.rawValue ?? "-"
                lines.append("\(user) \(conversation) unread \(unread) read \(read) delivered \(delivered)")
            }
        }
        for conversation in backend.conversationIDs {
            lines.append("\(conversation) \(try backend.shownStatuses(in: conversation))")
        }
        return lines
    }

    @Test("feeds, positions, markers, unread counts and trims survive a restart over an in-memory journal")
    func reopenInMemory() throws {
        // Given a backend that saw a conversation, receipts and a trim
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        try converse(on: backend)
        let before = try observed(backend)

        // When it restarts over the same journal
        let reopened = try BackendFixtures.backend(journal: journal)

        // Then everything reads the same: the trim still holds, the positions are the ones devices hold
        #expect(try observed(reopened) == before)
        #expect(try reopened.feedLines(for: "me", after: FeedPosition(7)) == ["8 message a1", "9 read ana m1"])
        #expect(try reopened.events(for: "me", after: FeedPosition(6), limit: 10, wait: .zero, as: "me") == .expired)
        #expect(reopened.marker(.read, of: "ana", in: "c1") == "m1")
        #expect(reopened.conversation("c2", for: "me")?.unreadCount == 1)
        #expect(try reopened.shownStatuses(in: "c1") == ["m0 read", "m1 read", "a1 sent"])

        // And the next event takes the next position
        try reopened.send(BackendFixtures.message("m2", at: 5))
        #expect(try reopened.feedLines(for: "me", after: FeedPosition(9)) == ["10 message m2"])
        #expect(try reopened.feedLines(for: "ana", after: FeedPosition(6)) == ["7 message m2"])
    }

    @Test("feeds, markers and trims survive closing and reopening a record-log journal on a simulated disk")
    func reopenRecordLog() throws {
        // Given a backend journaling to a record log on a simulated disk
        let disk = SimulatedFileSystem()
        try disk.createDirectory("/srv")
        let journal = try RecordLogBackendJournal(path: "/srv/backend.log", fileSystem: disk)
        let backend = try BackendFixtures.backend(BackendFixtures.twoConversations(), journal: journal)
        try converse(on: backend)
        let before = try observed(backend)
        journal.close()

        // When it reopens over the same file
        let reopenedJournal = try RecordLogBackendJournal(path: "/srv/backend.log", fileSystem: disk)
        defer { reopenedJournal.close() }
        let reopened = try BackendFixtures.backend(journal: reopenedJournal)

        // Then everything reads the same, receipts and the trim included
        #expect(try observed(reopened) == before)
        #expect(try reopened.feedLines(for: "ana", after: FeedPosition(4)) == ["5 message a1", "6 read ana m1"])
        #expect(reopened.marker(.read, of: "me", in: "c2") == "b1")
        #expect(reopened.keptEventCount(for: "ben") == 0)
        #expect(reopened.feedEndPosition(for: "ben") == FeedPosition(3))
    }

    @Test("a journal written before the feed existed replays its messages into the feeds and takes receipts")
    func oldFormatJournalReplays() throws {
        // Given a record log of JSON records, as builds before the binary layout and the feed wrote it
        let disk = SimulatedFileSystem()
        try disk.createDirectory("/srv")
        let old = try RecordLogStorage(path: "/srv/backend.log", fileSystem: disk)
        try old.append(LegacyBackendJournal.records)
        old.close()

        // When this build opens it
        let journal = try RecordLogBackendJournal(path: "/srv/backend.log", fileSystem: disk)
        let backend = try BackendFixtures.backend(BackendFixtures.twoConversations(), journal: journal)

        // Then its messages are in the participants' feeds, in journal order, and the name change is applied
        #expect(try backend.feedLines(for: "me") == ["1 message m1", "2 message m0"])
        #expect(try backend.feedLines(for: "ben") == ["1 message m1", "2 message m0"])
        #expect(try backend.feedLines(for: "ana") == [])
        #expect(backend.user("me")?.displayName == "Marta")
        #expect(backend.conversation("c2", for: "ben")?.unreadCount == 2)

        // And a receipt written on top of it replays after a restart
        try backend.markReceipt(try backend.receipt(.read, by: "ben", upTo: "m1"))
        journal.close()
        let reopenedJournal = try RecordLogBackendJournal(path: "/srv/backend.log", fileSystem: disk)
        defer { reopenedJournal.close() }
        let reopened = try BackendFixtures.backend(BackendFixtures.twoConversations(), journal: reopenedJournal)
        #expect(try reopened.feedLines(for: "me") == ["1 message m1", "2 message m0", "3 read ben m1"])
        #expect(reopened.marker(.read, of: "ben", in: "c2") == "m1")
    }

    @Test("a restart with the same retention forgets the same events: a cursor expired before is expired after")
    func retentionSurvivesRestart() throws {
        let journal = InMemoryBackendJournal()
        let data = BackendFixtures.twoConversations()
        let backend = try InMemoryChatBackend(seed: data, journal: journal, feedRetention: 3)
        for index in 0..<5 { try backend.send(BackendFixtures.message("m\(index)", at: Double(index))) }

        let reopened = try InMemoryChatBackend(seed: data, journal: journal, feedRetention: 3)

        for target in [backend, reopened] {
            let answer = try target.events(for: "ana", after: FeedPosition(1), limit: 10, wait: .zero, as: "ana")
            #expect(answer == .expired)
            #expect(
                try target.feedLines(for: "ana", after: FeedPosition(2)) == [
                    "3 message m2", "4 message m3", "5 message m4",
                ])
        }
    }

    // MARK: - Trim

    @Test("a trim makes a cursor behind the end expire, while one at the end reads on; positions go on")
    func trimFeeds() throws {
        // Given Ana's feed with three events, one device caught up and one behind
        let backend = try BackendFixtures.backend(messagesInC1: 3)

        // When the feeds are trimmed and another message arrives
        try backend.trimFeeds()
        try backend.receive(BackendFixtures.message("a1", at: 9, from: "ana"))

        // Then the device behind must start over; the one at the end hears the new message at position 4
        #expect(try backend.events(for: "ana", after: FeedPosition(2), limit: 10, wait: .zero, as: "ana") == .expired)
        #expect(try backend.events(for: "ana", after: .start, limit: 10, wait: .zero, as: "ana") == .expired)
        #expect(try backend.feedLines(for: "ana", after: FeedPosition(3)) == ["4 message a1"])
        #expect(backend.keptEventCount(for: "ana") == 1)
    }

    @Test("a trim is journaled: a restart does not bring the forgotten events back")
    func trimIsJournaled() throws {
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        try backend.send(BackendFixtures.message("m0"))
        try backend.trimFeeds()

        let reopened = try BackendFixtures.backend(journal: journal)

        #expect(journal.events.last == .feedsTrimmed)
        #expect(try reopened.events(for: "ana", after: .start, limit: 10, wait: .zero, as: "ana") == .expired)
        #expect(try reopened.feedLines(for: "ana", after: FeedPosition(1)) == [])
        #expect(reopened.feedEndPosition(for: "ana") == FeedPosition(1))
    }
}
