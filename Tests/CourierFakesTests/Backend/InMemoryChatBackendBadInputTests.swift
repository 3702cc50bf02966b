import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Bad input to the backend fake is answered with a typed error or an empty answer, never a trap: one wrong call
/// fails its own test and leaves the rest of the suite running.
@MainActor
@Suite("InMemoryChatBackend: bad input")
struct InMemoryChatBackendBadInputTests {
    @Test("page limits of zero, below zero and at the extremes are refused or served, and change nothing")
    func pageLimits() throws {
        // Given a conversation with three messages
        let backend = try BackendFixtures.backend(messagesInC1: 3)
        let before = backend.messages(in: "c1")

        // When pages are asked with bad limits, then each is a validation error
        for limit in [0, -1, Int.min] {
            #expect(throws: DeliveryError.validation(reason: "a page holds at least one message")) {
                try backend.messages(in: "c1", before: nil, limit: limit)
            }
            #expect(throws: DeliveryError.validation(reason: "a page holds at least one conversation")) {
                try backend.conversations(of: "me", after: nil, limit: limit)
            }
        }
        // And the largest limit serves everything
        #expect(try backend.messages(in: "c1", before: nil, limit: Int.max).messages == before)
        #expect(try backend.conversations(of: "me", after: nil, limit: Int.max).conversations.count == 2)
        #expect(backend.messages(in: "c1") == before)
    }

    @Test("a cursor naming no message of the conversation is a typed error, never a trap")
    func foreignCursors() throws {
        let backend = try BackendFixtures.backend(messagesInC1: 3)
        try backend.send(BackendFixtures.message("x", in: "c2", at: 100))
        let unknown = BackendFixtures.message("never-sent", at: 1_000_000).cursor
        let foreign = try #require(backend.messages(in: "c2").first).cursor
        let own = try #require(backend.messages(in: "c1").last).cursor

        // Then a page is found by the message its cursor names (arrival order, not time): an unknown or foreign
        // message is refused with a typed error, and a cursor of the conversation pages before that message
        let refusal = DeliveryError.validation(reason: "the page cursor names no message of this conversation")
        #expect(throws: refusal) { try backend.messages(in: "c1", before: unknown, limit: 2) }
        #expect(throws: refusal) { try backend.messages(in: "c1", before: foreign, limit: 5) }
        #expect(try backend.messages(in: "c1", before: own, limit: 5).messages.map(\.id).suffix(2) == ["m0", "m1"])
        // And a conversation cursor for a conversation that is not in the list starts at its position
        let stranger = ConversationCursor(lastActivity: Date.distantFuture, id: "nowhere")
        #expect(try backend.conversations(of: "me", after: stranger, limit: 5).conversations.count == 2)
        let last = ConversationCursor(lastActivity: Date.distantPast, id: "zzz")
        #expect(try backend.conversations(of: "me", after: last, limit: 5).conversations.isEmpty)
    }

    @Test("unknown conversations and ids are typed errors or empty answers")
    func unknownIDs() throws {
        let backend = try BackendFixtures.backend()
        #expect(throws: DeliveryError.notFound) { try backend.messages(in: "nowhere", before: nil, limit: 5) }
        #expect(throws: DeliveryError.notFound) {
            try backend.send(BackendFixtures.message("lost", in: "nowhere"))
        }
        #expect(throws: DeliveryError.validation(reason: "a message cannot be empty")) {
            try backend.send(BackendFixtures.message("blank", text: "  "))
        }
        // Ids of users I share no conversation with — unknown ones too — are not mine to ask about or rename
        #expect(throws: DeliveryError.forbidden) { try backend.updateDisplayName(of: "nobody", to: "Name") }
        #expect(throws: DeliveryError.forbidden) { try backend.users(["nobody", ""]) }
        #expect(throws: DeliveryError.forbidden) { try backend.presence(["nobody"]) }
        #expect(throws: DeliveryError.notFound) { try backend.updateDisplayName(of: "nobody", to: "N", as: "nobody") }
        #expect(try backend.sendBatch([]).isEmpty)
        #expect(backend.message("nowhere") == nil)
        #expect(backend.messages(in: "nowhere").isEmpty)
        #expect(backend.messageCount(in: "nowhere") == 0)
    }

    @Test("a batch with a bad message in the middle answers each message on its own")
    func mixedBatch() throws {
        let backend = try BackendFixtures.backend()
        let results = try backend.sendBatch([
            BackendFixtures.message("a"), BackendFixtures.message("b", in: "nowhere"), BackendFixtures.message("a"),
            BackendFixtures.message("c", text: ""),
        ])
        #expect(results.count == 4)
        #expect(results[1] == .failure(.notFound))
        #expect(results[3] == .failure(.validation(reason: "a message cannot be empty")))
        #expect(try results[2].get() == (try results[0].get()))
        #expect(backend.messages(in: "c1").map(\.id) == ["a"])
    }
}
