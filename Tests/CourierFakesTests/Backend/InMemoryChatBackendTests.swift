import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite("InMemoryChatBackend")
struct InMemoryChatBackendTests {
    // MARK: - Idempotency and order

    @Test("the same message id sent twice with the same content is stored once and the duplicate is counted")
    func duplicateIsIgnored() throws {
        // Given a backend that stored a message
        let backend = try BackendFixtures.backend()
        let first = try backend.send(BackendFixtures.message("m1", text: "hello"))

        // When the same id arrives again with the same content (a resend after a lost answer), at another time
        var resend = BackendFixtures.message("m1", at: 5, text: "hello")
        resend.attempts = 2
        let second = try backend.send(resend)

        // Then it is stored once, the stored copy answers, and the duplicate is counted
        #expect(backend.messageCount(in: "c1") == 1)
        #expect(backend.duplicatesIgnored == 1)
        #expect(second == first)
        #expect(second.status == .sent)
        #expect(backend.requests == 2)
    }

    @Test("the same message id with other content is a conflict: refused, nothing changes, not counted as duplicate")
    func sameIDOtherContentIsAConflict() throws {
        // Given a backend that stored a message
        let backend = try BackendFixtures.backend()
        try backend.send(BackendFixtures.message("m1", text: "hello"))

        // When the same id arrives with other text, or from a batch
        #expect(throws: DeliveryError.conflict) { try backend.send(BackendFixtures.message("m1", text: "changed")) }
        let batch = try backend.sendBatch([
            BackendFixtures.message("m2", text: "new"), BackendFixtures.message("m1", text: "other"),
        ])

        // Then the batch answers a conflict for that message only, and the stored text is untouched
        #expect(batch.map { (try? $0.get()) == nil } == [false, true])
        #expect(batch.last.map { if case .failure(.conflict) = $0 { true } else { false } } == true)
        #expect(backend.message("m1")?.text == "hello")
        #expect(backend.messages(in: "c1").map(\.id.rawValue) == ["m1", "m2"])
        #expect(backend.duplicatesIgnored == 0)
        #expect(!DeliveryError.conflict.isRetryable)
    }

    @Test("messages are kept in compose order, timestamp then id, whatever order they arrive in; pages follow it")
    func composeOrder() throws {
        let backend = try BackendFixtures.backend()

        // When the message stamped latest arrives first and the ones stamped before it arrive after
        try backend.send(BackendFixtures.message("m3", at: 30))
        try backend.send(BackendFixtures.message("m1", at: 10))
        try backend.send(BackendFixtures.message("m2", at: 20))

        // Then the conversation is in compose order, pages follow it, and the preview is the newest in compose order
        #expect(backend.messages(in: "c1").map(\.id.rawValue) == ["m1", "m2", "m3"])
        let cursor = try #require(backend.message("m3")).cursor
        let page = try backend.messages(in: "c1", before: cursor, limit: 1)
        #expect(page.messages.map(\.id.rawValue) == ["m2"])
        #expect(page.hasMore)
        #expect(backend.conversation("c1")?.lastMessage?.id.rawValue == "m3")
        #expect(backend.conversation("c1")?.lastActivity == BackendFixtures.now.addingTimeInterval(30))
    }

    @Test("a message held back arrives late and takes its compose position among everyone's messages; ids break ties")
    func lateMessageTakesItsComposePosition() throws {
        let backend = try BackendFixtures.backend()

        // When my second and third messages arrive, then Ana's (stamped as my second), then my first (held in a
        // queue, stamped before them all)
        try backend.send(BackendFixtures.message("me2", at: 20))
        try backend.send(BackendFixtures.message("me3", at: 30))
        try backend.receive(BackendFixtures.message("ana1", at: 20, from: "ana"))
        try backend.send(BackendFixtures.message("me1", at: 10))

        // Then each stands at its compose position, Ana's before my second by id; pages and the preview follow that
        #expect(backend.messages(in: "c1").map(\.id.rawValue) == ["me1", "ana1", "me2", "me3"])
        let cursor = try #require(backend.message("me3")).cursor
        #expect(
            try backend.messages(in: "c1", before: cursor, limit: 5).messages.map(\.id.rawValue)
                == ["me1", "ana1", "me2"])
        #expect(backend.conversation("c1")?.lastMessage?.id.rawValue == "me3")
    }

    @Test("bad input is refused with a typed error and changes nothing")
    func validation() throws {
        let backend = try BackendFixtures.backend()

        #expect(throws: DeliveryError.validation(reason: "a message cannot be empty")) {
            try backend.send(BackendFixtures.message("m1", text: "  \n"))
        }
        #expect(throws: DeliveryError.notFound) {
            try backend.send(BackendFixtures.message("m2", in: "nope"))
        }
        #expect(throws: DeliveryError.notFound) {
            try backend.messages(in: "nope", before: nil, limit: 50)
        }
        #expect(backend.messageCount(in: "c1") == 0)
        #expect(backend.conversation("c1")?.lastMessage == nil)
    }

    @Test("an expired sign-in refuses every request until renewed")
    func expiredSignIn() throws {
        let backend = try BackendFixtures.backend()
        backend.isSignInExpired = true

        #expect(throws: DeliveryError.unauthorized) { try backend.send(BackendFixtures.message("m1")) }
        #expect(throws: DeliveryError.unauthorized) { try backend.sendBatch([BackendFixtures.message("m1")]) }
        #expect(throws: DeliveryError.unauthorized) { try backend.conversations(of: "me", after: nil, limit: 50) }
        #expect(throws: DeliveryError.unauthorized) { try backend.updateDisplayName(of: "me", to: "Moi") }
        #expect(backend.messageCount(in: "c1") == 0)
        #expect(backend.requests == 4)

        backend.isSignInExpired = false
        try backend.send(BackendFixtures.message("m1"))
        #expect(backend.messageCount(in: "c1") == 1)
    }

    @Test("a batch is applied in order with one result per message")
    func batch() throws {
        let backend = try BackendFixtures.backend()
        try backend.send(BackendFixtures.message("m1", at: 1))

        let results = try backend.sendBatch([
            BackendFixtures.message("m1", at: 1), BackendFixtures.message("m2", at: 2, text: ""),
            BackendFixtures.message("m3", at: 3), BackendFixtures.message("m3", at: 3),
        ])

        #expect(results.map { (try? $0.get())?.id.rawValue } == ["m1", nil, "m3", "m3"])
        #expect(results[1] == .failure(.validation(reason: "a message cannot be empty")))
        #expect(backend.messages(in: "c1").map(\.id.rawValue) == ["m1", "m3"])
        #expect(backend.duplicatesIgnored == 2)
        #expect(backend.requests == 2)
    }

    // MARK: - Pages

    @Test("message pages go back by cursor: newest 50, then the 50 before, until hasMore is false")
    func messagePages() async throws {
        let backend = try BackendFixtures.backend(DemoData.make(seed: 7, now: BackendFixtures.now))
        let all = backend.messages(in: "c1")

        let newest = try backend.messages(in: "c1", before: nil, limit: 50)
        #expect(newest.messages == Array(all.suffix(50)))
        #expect(newest.hasMore)

        // A message arriving meanwhile shifts nothing in the older pages
        try backend.receive(
            Message(
                id: MessageID("late"), conversationID: "c1", senderID: "ana", text: "new",
                timestamp: BackendFixtures.now, status: .sent))
        let older = try backend.messages(in: "c1", before: newest.messages.first?.cursor, limit: 50)
        #expect(older.messages == Array(all[900..<950]))
        #expect(older.hasMore)

        var cursor = older.messages.first?.cursor
        var pages = 2
        var last = older
        while last.hasMore {
            last = try backend.messages(in: "c1", before: cursor, limit: 50)
            cursor = last.messages.first?.cursor
            pages += 1
        }
        #expect(pages == 20)
        #expect(last.messages == Array(all.prefix(50)))
        let beforeFirst = try backend.messages(in: "c1", before: all[0].cursor, limit: 50)
        #expect(beforeFirst == MessagePage(messages: [], hasMore: false))
    }

    @Test("the conversation list pages 50, 50, 20, most recent activity first")
    func conversationPages() throws {
        let backend = try BackendFixtures.backend(DemoData.make(seed: 7, now: BackendFixtures.now))

        let first = try backend.conversations(of: "me", after: nil, limit: 50)
        let cursor1 = first.conversations.last.map { ConversationCursor(lastActivity: $0.lastActivity, id: $0.id) }
        let second = try backend.conversations(of: "me", after: cursor1, limit: 50)
        let cursor2 = second.conversations.last.map { ConversationCursor(lastActivity: $0.lastActivity, id: $0.id) }
        let third = try backend.conversations(of: "me", after: cursor2, limit: 50)

        #expect([first, second, third].map(\.conversations.count) == [50, 50, 20])
        #expect([first, second, third].map(\.hasMore) == [true, true, false])
        let listed = (first.conversations + second.conversations + third.conversations).map(\.id)
        #expect(listed == (1...120).map { ConversationID("c\($0)") })
        let anas = try backend.conversations(of: "ana", after: nil, limit: 50, as: "ana")
        #expect(anas.conversations.map(\.id) == ["c1"])
        #expect(throws: DeliveryError.forbidden) { try backend.conversations(of: "ana", after: nil, limit: 50) }
    }

    @Test("a new message moves its conversation to the top and counts as unread when someone else wrote it")
    func newMessageMovesConversationToTop() throws {
        let backend = try BackendFixtures.backend()
        #expect(backend.conversationIDs == ["c1", "c2"])

        try backend.receive(BackendFixtures.message("b1", in: "c2", at: 0, from: "ben"))

        #expect(backend.conversationIDs == ["c2", "c1"])
        #expect(backend.conversation("c2")?.unreadCount == 1)
        #expect(backend.conversation("c2")?.lastMessage?.id.rawValue == "b1")
        #expect(try backend.conversations(of: "me", after: nil, limit: 1).conversations.map(\.id) == ["c2"])
        #expect(backend.requests == 1)
    }

    // MARK: - Profiles

    @Test("a display name change is stored; an empty name or unknown user is refused")
    func displayName() throws {
        let backend = try BackendFixtures.backend()

        try backend.updateDisplayName(of: "me", to: "  Mia ")

        #expect(backend.user("me")?.displayName == "Mia")
        #expect(try backend.users(["me", "ana"]).map(\.displayName) == ["Mia", "Ana"])
        #expect(throws: DeliveryError.forbidden) { try backend.users(["me", "ghost", "ana"]) }
        #expect(throws: DeliveryError.validation(reason: "a display name cannot be empty")) {
            try backend.updateDisplayName(of: "me", to: " ")
        }
        #expect(throws: DeliveryError.notFound) { try backend.updateDisplayName(of: "ghost", to: "Boo", as: "ghost") }
        #expect(throws: DeliveryError.forbidden) { try backend.updateDisplayName(of: "ana", to: "Boo") }
        #expect(backend.user("ana")?.displayName == "Ana")
        #expect(backend.user("me")?.displayName == "Mia")
    }

    // MARK: - Journal

    @Test("replaying the journal restores messages, names, previews and idempotency")
    func journalReplay() throws {
        // Given a backend that accepted writes
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        try backend.send(BackendFixtures.message("m2", at: 20))
        try backend.send(BackendFixtures.message("m1", at: 10))
        try backend.receive(BackendFixtures.message("b1", in: "c2", at: 40, from: "ben"))
        try backend.updateDisplayName(of: "me", to: "Mia")

        // When it restarts over the same journal
        let restarted = try BackendFixtures.backend(journal: journal)

        // Then everything is back, and a resend of a stored id is still a duplicate
        #expect(restarted.messages(in: "c1") == backend.messages(in: "c1"))
        #expect(restarted.messages(in: "c2") == backend.messages(in: "c2"))
        #expect(restarted.conversation("c2") == backend.conversation("c2"))
        #expect(restarted.conversationIDs == ["c2", "c1"])
        #expect(restarted.user("me")?.displayName == "Mia")
        try restarted.send(BackendFixtures.message("m1", at: 10))
        #expect(restarted.messageCount(in: "c1") == 2)
        #expect(restarted.duplicatesIgnored == 1)
    }

    @Test("a write the journal refuses is answered with a server error and changes nothing")
    func journalFailure() throws {
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        journal.failNextAppend(with: CocoaError(.fileWriteOutOfSpace))

        #expect(throws: DeliveryError.server(code: 500)) { try backend.send(BackendFixtures.message("m1")) }
        #expect(backend.messageCount(in: "c1") == 0)
        #expect(journal.events.isEmpty)

        try backend.send(BackendFixtures.message("m1"))
        #expect(backend.messageCount(in: "c1") == 1)
        #expect(journal.events.count == 1)
    }
}
