import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Who hears of a new message, and the unread counts each participant sees.
@MainActor
@Suite("InMemoryChatBackend: feed")
struct InMemoryChatBackendFeedTests {
    @Test("a message reaches every participant's feed, the sender's too, and no one else's")
    func messageReachesParticipants() throws {
        // Given a backend with a pair chat (me, Ana), another (me, Ben) and a group (me, Ana, Ben)
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup())

        // When I write to the group, and Ana writes to our pair chat
        try backend.send(BackendFixtures.message("g-me", in: "g1", at: 1))
        try backend.receive(BackendFixtures.message("c1-ana", in: "c1", at: 2, from: "ana"))

        // Then each participant's feed holds what was said where they are, in order, with positions of their own
        #expect(try backend.feedLines(for: "me") == ["1 message g-me", "2 message c1-ana"])
        #expect(try backend.feedLines(for: "ana") == ["1 message g-me", "2 message c1-ana"])
        #expect(try backend.feedLines(for: "ben") == ["1 message g-me"])
        #expect(try backend.feedLines(for: "cy") == [])
        #expect(backend.feedEndPosition(for: "ben") == FeedPosition(1))
        #expect(backend.feedEndPosition(for: "cy") == .start)
    }

    @Test("a feed event carries the message as stored: sent, in its conversation")
    func messageEventIsTheStoredMessage() throws {
        let backend = try BackendFixtures.backend()

        let stored = try backend.send(BackendFixtures.message("m1"))

        let event = try #require(try backend.feedEvents(for: "ana")?.first)
        #expect(event.change == .message(stored))
        #expect(event.conversationID == "c1")
        #expect(stored.status == .sent)
    }

    @Test("a duplicate or refused write puts nothing in any feed")
    func duplicatesAndRefusalsPublishNothing() throws {
        let backend = try BackendFixtures.backend()
        try backend.send(BackendFixtures.message("m1", text: "hello"))

        // When the same message is resent, a conflicting one arrives, and an empty one is refused
        try backend.send(BackendFixtures.message("m1", at: 5, text: "hello"))
        _ = try? backend.send(BackendFixtures.message("m1", text: "other"))
        _ = try? backend.send(BackendFixtures.message("m2", text: " "))

        // Then the feeds hold the first write only
        #expect(try backend.feedLines(for: "me") == ["1 message m1"])
        #expect(try backend.feedLines(for: "ana") == ["1 message m1"])
    }

    @Test("seed data is history: it puts nothing in any feed")
    func seedDataPublishesNothing() throws {
        // Given the demo data, thousands of messages across 120 conversations
        let data = DemoData.make(seed: 7, now: BackendFixtures.now)
        #expect(!data.messages.isEmpty)

        // When a backend starts from it
        let backend = try BackendFixtures.backend(data)

        // Then every user's feed is empty and starts at 0
        for user in data.users {
            #expect(backend.feedEndPosition(for: user.id) == .start, "\(user.id)")
            #expect(try backend.feedEvents(for: user.id) == [], "\(user.id)")
        }
    }

    @Test("a batch is cut at its limit and says more waits; a limit below one is refused")
    func batchLimit() throws {
        let backend = try BackendFixtures.backend(messagesInC1: 5)

        let answer = try backend.events(for: "ana", after: FeedPosition(1), limit: 3, wait: .zero, as: "ana")

        guard case .batch(let batch) = answer else { throw DeliveryError.unknown("expired: \(answer)") }
        #expect(batch.events.map(\.position.number) == [2, 3, 4])
        #expect(batch.end == FeedPosition(4))
        #expect(batch.hasMore)
        #expect(throws: DeliveryError.validation(reason: "a batch holds at least one event")) {
            try backend.events(for: "ana", after: .start, limit: 0, wait: .zero, as: "ana")
        }
    }

    @Test("a cursor beyond a user's newest event is answered expired")
    func cursorBeyondTheEndExpires() throws {
        let backend = try BackendFixtures.backend(messagesInC1: 2)

        #expect(try backend.events(for: "ana", after: FeedPosition(3), limit: 10, wait: .zero, as: "ana") == .expired)
        #expect(try backend.events(for: "cy", after: FeedPosition(1), limit: 10, wait: .zero, as: "cy") == .expired)
        let beyond = try backend.events(for: "ana", after: FeedPosition(.max), limit: 10, wait: .zero, as: "ana")
        #expect(beyond == .expired)
    }

    // MARK: - Unread counts

    @Test("a message from Ben counts as unread for me, not for Ben; Ben's own count stays zero")
    func unreadIsPerUser() throws {
        let backend = try BackendFixtures.backend()

        // When Ben writes twice and I answer once
        try backend.receive(BackendFixtures.message("b1", in: "c2", at: 1, from: "ben"))
        try backend.receive(BackendFixtures.message("b2", in: "c2", at: 2, from: "ben"))
        try backend.send(BackendFixtures.message("m1", in: "c2", at: 3))

        // Then I have two unread, and Ben one (mine)
        #expect(backend.conversation("c2", for: "me")?.unreadCount == 2)
        #expect(backend.conversation("c2", for: "ben")?.unreadCount == 1)
        let bens = try backend.conversations(of: "ben", after: nil, limit: 10, as: "ben")
        #expect(bens.conversations.map(\.unreadCount) == [1])
    }

    @Test("a read marker recounts: what follows it from others stays unread")
    func readMarkerRecounts() throws {
        // Given three messages from Ben, then one of mine, then one more of Ben's
        let backend = try BackendFixtures.backend()
        for index in 1...3 {
            try backend.receive(BackendFixtures.message("b\(index)", in: "c2", at: Double(index), from: "ben"))
        }
        try backend.send(BackendFixtures.message("m1", in: "c2", at: 4))
        try backend.receive(BackendFixtures.message("b4", in: "c2", at: 5, from: "ben"))
        #expect(backend.conversation("c2", for: "me")?.unreadCount == 4)

        // When I read up to Ben's second
        try backend.markReceipt(try backend.receipt(.read, by: "me", upTo: "b2"))

        // Then his third and fourth are unread (mine is never), and Ben's count is untouched
        #expect(backend.conversation("c2", for: "me")?.unreadCount == 2)
        #expect(backend.conversation("c2", for: "ben")?.unreadCount == 1)

        // And reading everything clears it
        try backend.markReceipt(try backend.receipt(.read, by: "me", upTo: "b4"))
        #expect(backend.conversation("c2", for: "me")?.unreadCount == 0)
    }

    @Test("a delivered marker leaves the unread count alone")
    func deliveredDoesNotRecount() throws {
        let backend = try BackendFixtures.backend()
        try backend.receive(BackendFixtures.message("b1", in: "c2", at: 1, from: "ben"))

        try backend.markReceipt(try backend.receipt(.delivered, by: "me", upTo: "b1"))

        #expect(backend.conversation("c2", for: "me")?.unreadCount == 1)
    }
}
