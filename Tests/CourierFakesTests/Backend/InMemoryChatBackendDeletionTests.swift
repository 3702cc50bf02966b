import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A sender deletes a message for everyone: it leaves pages, previews, counts and markers, every participant's feed
/// hears of it, durably, and its id is never stored again.
@MainActor
@Suite("InMemoryChatBackend: deleting a message")
struct InMemoryChatBackendDeletionTests {
    /// The feed's lines without their positions.
    private func changes(_ lines: [String]?) -> [String] {
        (lines ?? []).map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
    }

    @Test("a deleted message leaves pages, preview and unread count; its markers step back; feeds hear of it")
    func deletedForEveryone() throws {
        // Given three messages of mine in c1, Ana having read the first, the newest the preview
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        for (index, id) in ["m1", "m2", "m3"].enumerated() {
            try backend.send(BackendFixtures.message(id, at: Double(index)))
        }
        try backend.mark(try backend.receipt(.read, by: "ana", upTo: "m3"), as: "ana")
        try backend.receive(BackendFixtures.message("a1", at: 5, from: "ana"))
        let anaEnd = backend.feedEndPosition(for: "ana")

        // When I delete m3 (which Ana's read marker names) and Ana deletes a1
        try backend.deleteMessage("m3", in: "c1", by: "me")
        try backend.deleteMessage("a1", in: "c1", by: "ana")

        // Then the pages and the preview no longer hold them, my unread count lost Ana's message, Ana's marker is on
        // m2, and both feeds heard of both deletions
        #expect(try backend.messages(in: "c1", before: nil, limit: 50).messages.map(\.id) == ["m1", "m2"])
        #expect(backend.conversation("c1")?.lastMessage?.id == "m2")
        #expect(backend.conversation("c1")?.unreadCount == 0)
        #expect(backend.marker(.read, of: "ana", in: "c1") == "m2")
        #expect(try backend.shownStatuses(in: "c1") == ["m1 read", "m2 read"])
        #expect(try changes(backend.feedLines(for: "ana", after: anaEnd)) == ["deletion m3", "deletion a1"])
        #expect(try changes(backend.feedLines(for: "me")).suffix(2) == ["deletion m3", "deletion a1"])

        // And a backend rebuilt from the journal holds the same
        let replayed = try BackendFixtures.backend(journal: journal)
        #expect(replayed.messages(in: "c1").map(\.id) == ["m1", "m2"])
        #expect(replayed.marker(.read, of: "ana", in: "c1") == "m2")
    }

    @Test("a resend of a deleted message is answered as stored, is not stored, and its sender's feed hears again")
    func neverStoredAgain() throws {
        let backend = try BackendFixtures.backend()
        let message = BackendFixtures.message("m1")
        try backend.send(message)
        try backend.deleteMessage("m1", in: "c1", by: "me")
        let end = backend.feedEndPosition(for: "me")
        let duplicates = backend.duplicatesIgnored

        let answer = try backend.send(message)

        #expect(answer.id == "m1" && answer.status == .sent)
        #expect(backend.messageCount(in: "c1") == 0)
        #expect(backend.duplicatesIgnored == duplicates + 1)
        #expect(try changes(backend.feedLines(for: "me", after: end)) == ["deletion m1"])
    }

    @Test("only the sender deletes; a stranger learns nothing; deleting twice changes nothing")
    func authorization() throws {
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup(), journal: journal)
        try backend.send(BackendFixtures.message("m1", in: "g1"))

        #expect(throws: DeliveryError.forbidden) { try backend.deleteMessage("m1", in: "g1", by: "ana") }
        #expect(throws: DeliveryError.notFound) { try backend.deleteMessage("m1", in: "g1", by: "cy") }
        #expect(throws: DeliveryError.notFound) { try backend.deleteMessage("m1", in: "c1", by: "me") }
        #expect(throws: DeliveryError.notFound) { try backend.deleteMessage("nope", in: "g1", by: "me") }
        #expect(backend.messageCount(in: "g1") == 1)

        try backend.deleteMessage("m1", in: "g1", by: "me")
        let events = try journal.load().count
        try backend.deleteMessage("m1", in: "g1", by: "me")
        #expect(try journal.load().count == events)
    }

    @Test("one id in two conversations is two messages: each stored, deleted and replayed on its own")
    func anIdNamesAMessageWithinItsConversation() throws {
        // Given the id m1 stored in c1 by me and in c2 by Ben, with other text
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        try backend.send(BackendFixtures.message("m1", in: "c1", text: "to Ana"))
        try backend.receive(BackendFixtures.message("m1", in: "c2", at: 1, text: "from Ben", from: "ben"))

        // When I delete mine
        try backend.deleteMessage("m1", in: "c1", by: "me")

        // Then Ben's stays, in c2 only, before and after a replay of the journal; a resend of mine is not stored again
        let replayed = try BackendFixtures.backend(journal: journal)
        for backend in [backend, replayed] {
            #expect(backend.message("m1", in: "c2")?.text == "from Ben")
            #expect(backend.message("m1", in: "c1") == nil)
            #expect(backend.isDeleted("m1", in: "c1"))
            #expect(!backend.isDeleted("m1", in: "c2"))
        }
        try backend.send(BackendFixtures.message("m1", in: "c1", text: "to Ana"))
        #expect(backend.message("m1", in: "c1") == nil)
    }
}
