import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Delivered and read markers: they only move forward, everyone in the conversation hears of them, and senders see
/// their messages' statuses follow them.
@MainActor
@Suite("InMemoryChatBackend: receipts")
struct InMemoryChatBackendReceiptTests {
    /// A backend where I wrote `m0`, `m1`, `m2` to Ana in `c1`, a second apart, and nothing else happened.
    private func backendWithMyThreeMessages(journal: InMemoryBackendJournal = InMemoryBackendJournal()) throws
        -> InMemoryChatBackend
    {
        let backend = try BackendFixtures.backend(journal: journal)
        for index in 0..<3 { try backend.send(BackendFixtures.message("m\(index)", at: Double(index))) }
        return backend
    }

    @Test("a receipt moves the marker and every participant hears of it, with the stored message's cursor")
    func receiptIsPublished() throws {
        let backend = try backendWithMyThreeMessages()

        // When Ana's device reports m1 read, with a compose time of its own
        var receipt = try backend.receipt(.read, by: "ana", upTo: "m1")
        let stored = receipt.upTo
        receipt.upTo.timestamp = BackendFixtures.now.addingTimeInterval(999)
        try backend.markReceipt(receipt)

        // Then her marker moved, both feeds tell of it, Ben's feed does not, and the event names the stored cursor
        #expect(backend.marker(.read, of: "ana", in: "c1") == "m1")
        #expect(try backend.feedLines(for: "me", after: FeedPosition(3)) == ["4 read ana m1"])
        #expect(try backend.feedLines(for: "ana", after: FeedPosition(3)) == ["4 read ana m1"])
        #expect(try backend.feedLines(for: "ben") == [])
        let event = try #require(try backend.feedEvents(for: "me", after: FeedPosition(3))?.first)
        #expect(event.change == .receipt(Receipt(conversationID: "c1", userID: "ana", kind: .read, upTo: stored)))
    }

    @Test("a marker only moves forward: an older or equal one is a no-op that publishes and journals nothing")
    func markerMovesForwardOnly() throws {
        // Given Ana has read up to m1
        let journal = InMemoryBackendJournal()
        let backend = try backendWithMyThreeMessages(journal: journal)
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m1"))
        let end = backend.feedEndPosition(for: "me")
        let journaled = journal.events.count

        // When a stale device reports m0 read, and another m1 again
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m0"))
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m1"))

        // Then nothing moved, no one heard anything, nothing was journaled
        #expect(backend.marker(.read, of: "ana", in: "c1") == "m1")
        #expect(backend.feedEndPosition(for: "me") == end)
        #expect(backend.feedEndPosition(for: "ana") == end)
        #expect(journal.events.count == journaled)
        #expect(try backend.shownStatuses(in: "c1") == ["m0 read", "m1 read", "m2 sent"])
    }

    @Test("read implies delivered: a later delivered marker at or below the read one is a no-op, above it moves")
    func readImpliesDelivered() throws {
        // Given Ana has read up to m1
        let backend = try backendWithMyThreeMessages()
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m1"))
        let end = backend.feedEndPosition(for: "me")

        // When her device reports m0, then m1 delivered
        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m0"))
        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m1"))

        // Then nothing is published, and her delivered marker is her read one
        #expect(backend.feedEndPosition(for: "me") == end)
        #expect(backend.marker(.delivered, of: "ana", in: "c1") == "m1")

        // When it reports m2 delivered, the marker moves and m1 stays read
        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m2"))
        let endNumber = try #require(end.number)
        #expect(try backend.feedLines(for: "me", after: end) == ["\(endNumber + 1) delivered ana m2"])
        #expect(backend.marker(.delivered, of: "ana", in: "c1") == "m2")
        #expect(backend.marker(.read, of: "ana", in: "c1") == "m1")
        #expect(try backend.shownStatuses(in: "c1") == ["m0 read", "m1 read", "m2 delivered"])
    }

    @Test("a delivered marker does not make the read one move")
    func deliveredDoesNotRead() throws {
        let backend = try backendWithMyThreeMessages()

        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m2"))

        #expect(backend.marker(.read, of: "ana", in: "c1") == nil)
        #expect(backend.marker(.delivered, of: "ana", in: "c1") == "m2")
        #expect(try backend.shownStatuses(in: "c1") == ["m0 delivered", "m1 delivered", "m2 delivered"])
    }

    @Test("a message filed at or before my read marker (its device's clock behind) is not unread to me, nor on replay")
    func heldBackMessageBeforeTheMarkerIsNotUnread() throws {
        // Given Ana wrote a0 and a2, and I read up to a2
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        try backend.receive(BackendFixtures.message("a0", at: 0, from: "ana"))
        try backend.receive(BackendFixtures.message("a2", at: 2, from: "ana"))
        try backend.markReceipt(try backend.receipt(.read, by: "me", upTo: "a2"))
        #expect(backend.conversation("c1", for: "me")?.unreadCount == 0)

        // When her other device, its clock behind, sends a1: it is filed before a2, which my marker covers
        try backend.receive(BackendFixtures.message("a1", at: 1, from: "ana"))

        // Then it is not unread to me — a read receipt on it would not move my marker either (seed 53268) —
        // while a message after the marker is
        #expect(backend.conversation("c1", for: "me")?.unreadCount == 0)
        try backend.markReceipt(try backend.receipt(.read, by: "me", upTo: "a1"))
        #expect(backend.marker(.read, of: "me", in: "c1") == "a2")
        try backend.receive(BackendFixtures.message("a3", at: 3, from: "ana"))
        #expect(backend.conversation("c1", for: "me")?.unreadCount == 1)
        #expect(try BackendFixtures.backend(journal: journal).conversation("c1", for: "me")?.unreadCount == 1)
    }

    @Test("a receipt that cannot apply is refused with a typed error and changes nothing")
    func refusedReceipts() throws {
        let journal = InMemoryBackendJournal()
        let backend = try backendWithMyThreeMessages(journal: journal)
        try backend.receive(BackendFixtures.message("b1", in: "c2", from: "ben"))
        let ends = ["me", "ana", "ben"].map { backend.feedEndPosition(for: UserID($0)) }
        let journaled = journal.events.count
        let m1 = try #require(backend.message("m1")).cursor

        // Ben is not in c1; c9 does not exist; b1 is not a message of c1; nor is an id never stored
        #expect(throws: DeliveryError.notFound) {  // not his: answered as unknown
            try backend.markReceipt(Receipt(conversationID: "c1", userID: "ben", kind: .read, upTo: m1))
        }
        #expect(throws: DeliveryError.notFound) {
            try backend.markReceipt(Receipt(conversationID: "c9", userID: "ana", kind: .read, upTo: m1))
        }
        let b1 = try #require(backend.message("b1")).cursor
        let reason = "the receipt names no message of this conversation"
        #expect(throws: DeliveryError.validation(reason: reason)) {
            try backend.markReceipt(Receipt(conversationID: "c1", userID: "ana", kind: .read, upTo: b1))
        }
        let ghost = MessageCursor(timestamp: BackendFixtures.now, id: "ghost")
        #expect(throws: DeliveryError.validation(reason: reason)) {
            try backend.markReceipt(Receipt(conversationID: "c1", userID: "ana", kind: .delivered, upTo: ghost))
        }

        // Then no marker moved, no feed grew, nothing was journaled, no status changed
        #expect(backend.markedConversations == [])
        #expect(["me", "ana", "ben"].map { backend.feedEndPosition(for: UserID($0)) } == ends)
        #expect(journal.events.count == journaled)
        #expect(try backend.shownStatuses(in: "c1") == ["m0 sent", "m1 sent", "m2 sent"])
        #expect(backend.conversation("c2", for: "me")?.unreadCount == 1)
    }

    @Test("a receipt the journal refuses is a server error and changes nothing")
    func journalRefusesReceipt() throws {
        let journal = InMemoryBackendJournal()
        let backend = try backendWithMyThreeMessages(journal: journal)
        let end = backend.feedEndPosition(for: "me")
        journal.failNextAppend(with: CocoaError(.fileWriteOutOfSpace))

        #expect(throws: DeliveryError.server(code: 500)) {
            try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m2"))
        }

        #expect(backend.marker(.read, of: "ana", in: "c1") == nil)
        #expect(backend.feedEndPosition(for: "me") == end)
        #expect(try backend.shownStatuses(in: "c1") == ["m0 sent", "m1 sent", "m2 sent"])
    }

    // MARK: - Statuses as the sender sees them

    @Test("pages show my messages sent, then delivered and read as Ana's markers cover them")
    func pagesFollowTheMarkers() throws {
        let backend = try backendWithMyThreeMessages()
        #expect(try backend.shownStatuses(in: "c1") == ["m0 sent", "m1 sent", "m2 sent"])

        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m1"))
        #expect(try backend.shownStatuses(in: "c1") == ["m0 delivered", "m1 delivered", "m2 sent"])

        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m0"))
        #expect(try backend.shownStatuses(in: "c1") == ["m0 read", "m1 delivered", "m2 sent"])

        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m2"))
        #expect(try backend.shownStatuses(in: "c1") == ["m0 read", "m1 read", "m2 read"])
    }

    @Test("my own markers never change the status of my own messages")
    func ownMarkersDoNotRaiseOwnMessages() throws {
        let backend = try backendWithMyThreeMessages()

        // When my other device reports everything read
        try backend.markReceipt(try backend.receipt(.read, by: "me", upTo: "m2"))

        // Then my messages are still only sent
        #expect(try backend.shownStatuses(in: "c1") == ["m0 sent", "m1 sent", "m2 sent"])
        #expect(backend.conversation("c1", for: "me")?.lastMessage?.status == .sent)
    }

    @Test("in a group, a message is read once anyone else read it, delivered once anyone else received it")
    func groupStatuses() throws {
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup())
        for index in 0..<3 { try backend.send(BackendFixtures.message("g\(index)", in: "g1", at: Double(index))) }

        try backend.markReceipt(try backend.receipt(.delivered, by: "ben", upTo: "g2"))
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "g0"))

        #expect(try backend.shownStatuses(in: "g1") == ["g0 read", "g1 delivered", "g2 delivered"])
    }

    @Test("the conversation's preview shows its newest message's status as the sender sees it")
    func previewStatus() throws {
        let backend = try backendWithMyThreeMessages()
        #expect(backend.conversation("c1", for: "me")?.lastMessage?.status == .sent)

        try backend.markReceipt(try backend.receipt(.delivered, by: "ana", upTo: "m2"))
        #expect(backend.conversation("c1", for: "me")?.lastMessage?.status == .delivered)
        #expect(backend.conversation("c1", for: "ana")?.lastMessage?.status == .delivered)

        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m2"))
        #expect(backend.conversation("c1")?.lastMessage?.status == .read)
        let listed = try backend.conversations(of: "me", after: nil, limit: 10).conversations.first
        #expect(listed?.lastMessage?.status == .read)
    }
}
