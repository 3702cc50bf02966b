import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

private let start = Date(timeIntervalSince1970: 1_767_258_000)

/// What the cache holds of a conversation has no hole, since a page it serves offline is shown as the conversation
/// (found by the simulation's convergence check).
@Suite struct MessageCacheHoleTests {
    private func message(_ id: String, from sender: UserID = "ana", at second: Double) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: sender, text: id,
            timestamp: start.addingTimeInterval(second), status: .sent)
    }

    @Test("a message composed before the oldest held one is not kept: it would stand over messages never held")
    func aLateOldMessageDoesNotReachBackOverAHole() throws {
        // Given a cache that holds the newest part of a conversation only (from 30 s on), not its start
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(MessagePage(messages: [message("m30", at: 30), message("m40", at: 40)], hasMore: true), in: "c1")

        // When my message written offline at 10 s is delivered now, and one of 50 s arrives
        cache.store([message("mine10", from: "me", at: 10)])
        cache.store([message("m50", at: 50)])

        // Then the offline page is the held part, whole, with more to load before it (not a page that skips what
        // was said between 10 s and 30 s)
        let page = try #require(cache.page(in: "c1", before: nil, limit: 50))
        #expect(page.messages.map(\.id) == ["m30", "m40", "m50"])
        #expect(page.hasMore)
    }

    @Test("once the start of the conversation is held, a late message takes its place")
    func aLateMessageJoinsAWholeConversation() throws {
        // Given a cache that holds a whole conversation
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(MessagePage(messages: [message("m30", at: 30)], hasMore: false), in: "c1")

        // When my message written at 10 s is delivered now
        cache.store([message("mine10", from: "me", at: 10)])

        // Then it stands first
        #expect(cache.messages(in: "c1").map(\.id) == ["mine10", "m30"])
    }

    @Test("the first messages of a conversation held set where it starts, in the order they reached the backend")
    func theFirstMessageHeldSetsTheStart() throws {
        // Given a cache that holds nothing of c1, which hears of a message of 30 s, then of one written at 10 s
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store([message("m30", at: 30), message("late10", at: 10)])

        // Then only the first is held: what was written between 10 s and 30 s is unknown
        #expect(cache.messages(in: "c1").map(\.id) == ["m30"])
    }

    @Test("a forgotten conversation keeps no late answer until a page starts it again: it could hide newer messages")
    func aForgottenConversationWaitsForAPage() throws {
        // Given a conversation the cache forgot (after a start-over, what it held could have a hole)
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(MessagePage(messages: [message("m30", at: 30)], hasMore: true), in: "c1")
        cache.forget("c1")

        // When the late answer to my message of 40 s is stored (the backend has newer ones the feed will not bring)
        cache.store([message("mine40", from: "me", at: 40)])

        // Then nothing is served offline as the conversation; once a page comes (or the feed's arrivals), the cache
        // holds it again
        #expect(cache.page(in: "c1", before: nil, limit: 50) == nil)
        cache.store(
            MessagePage(messages: [message("mine40", from: "me", at: 40), message("m60", at: 60)], hasMore: true),
            in: "c1")
        cache.store([message("m70", at: 70)])
        #expect(cache.messages(in: "c1").map(\.id) == ["mine40", "m60", "m70"])
    }

    @Test("a late message it could not keep joins once a page read before it reaches back over its place")
    func aHeldBackMessageJoinsWhenAPageReachesItsPlace() throws {
        // Given a cache that holds c1 from 30 s on, and my message written at 10 s, delivered late and not kept
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(MessagePage(messages: [message("m30", at: 30), message("m40", at: 40)], hasMore: true), in: "c1")
        cache.keepDelivered([message("mine10", from: "me", at: 10)])
        #expect(cache.messages(in: "c1").map(\.id) == ["m30", "m40"])

        // When the page before m30, read by the backend before it had my message, comes: the start of c1
        cache.store(MessagePage(messages: [message("m5", at: 5), message("m20", at: 20)], hasMore: false), in: "c1")

        // Then my message stands in its place, awaiting its echo (seed 92533)
        #expect(cache.messages(in: "c1").map(\.id) == ["m5", "mine10", "m20", "m30", "m40"])
        #expect(cache.awaitsEcho("mine10", in: "c1"))
    }

    @Test("a late message held back that its echo or its deletion settled joins as they left it")
    func aHeldBackMessageFollowsItsEchoAndDeletion() throws {
        // Given a cache that holds c1 from 30 s on, and two late messages of mine not kept; the echo of one comes,
        // and the other is deleted
        let storage = InMemoryRecordStorage()
        let cache = try MessageCache(storage: storage)
        cache.store(MessagePage(messages: [message("m30", at: 30)], hasMore: true), in: "c1")
        cache.keepDelivered([message("mine10", from: "me", at: 10), message("mine12", from: "me", at: 12)])
        cache.echoesCame([("mine10", "c1")])
        cache.remove("mine12", in: "c1")

        // When a page reaches back over their place
        cache.store(MessagePage(messages: [message("m5", at: 5)], hasMore: false), in: "c1")

        // Then the echoed one joins, awaiting nothing, and the deleted one does not; so after a relaunch
        #expect(cache.messages(in: "c1").map(\.id) == ["m5", "mine10", "m30"])
        #expect(!cache.awaitsEcho("mine10", in: "c1"))
        let relaunched = try MessageCache(storage: storage)
        #expect(relaunched.messages(in: "c1").map(\.id) == ["m5", "mine10", "m30"])
    }

    @Test("a late answer held back in a forgotten conversation does not join past the newest a page brings")
    func aHeldBackMessageNeverGoesPastWhatIsHeld() throws {
        // Given a forgotten conversation, and the late answer to my message of 40 s
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(MessagePage(messages: [message("m30", at: 30)], hasMore: true), in: "c1")
        cache.forget("c1")
        cache.keepDelivered([message("mine40", from: "me", at: 40)])

        // When an older page comes, ending before it (the backend may hold others between)
        cache.store(MessagePage(messages: [message("m10", at: 10), message("m20", at: 20)], hasMore: true), in: "c1")

        // Then it is not taken in
        #expect(cache.messages(in: "c1").map(\.id) == ["m10", "m20"])
    }

    @Test("a late answer held back joins when a later message joins after it, and a receipt past both raises it")
    func aHeldBackMessageJoinsWhenALaterOneJoinsAfterIt() throws {
        // Given a forgotten conversation (a start-over left it out), the answer to my message of 40 s held back and
        // its echo come, then a page read before the backend had it, ending at 20 s
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store(MessagePage(messages: [message("m30", at: 30)], hasMore: true), in: "c1")
        cache.forget("c1")
        cache.keepDelivered([message("mine40", from: "me", at: 40)])
        cache.echoesCame([("mine40", "c1")])
        cache.store(MessagePage(messages: [message("m10", at: 10), message("m20", at: 20)], hasMore: true), in: "c1")

        // When the answer to my next message, of 50 s, joins after it
        cache.keepDelivered([message("mine50", from: "me", at: 50)])

        // Then my message of 40 s stands in its place, awaiting no echo, and a receipt up to 50 s raises both
        // (seed 88193: the chat showed it sent when the backend said delivered)
        #expect(cache.messages(in: "c1").map(\.id) == ["m10", "m20", "mine40", "mine50"])
        #expect(!cache.awaitsEcho("mine40", in: "c1") && cache.awaitsEcho("mine50", in: "c1"))
        let upTo = try #require(cache.message("mine50", in: "c1")).cursor
        let raised = cache.raisedStatuses(in: "c1", from: "me", upTo: upTo, by: .delivered)
        #expect(raised.map(\.id) == ["mine40", "mine50"] && raised.allSatisfy { $0.status == .delivered })
    }
}
