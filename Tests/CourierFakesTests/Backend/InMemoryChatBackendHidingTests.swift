import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A conversation deleted on a device is hidden by the backend for that user alone, durably, and only a participant
/// may hide it, for themselves.
@MainActor
@Suite("InMemoryChatBackend: hiding a conversation")
struct InMemoryChatBackendHidingTests {
    @Test("a hidden conversation leaves the user's list, not the others', and survives a replay of the journal")
    func hiddenForThisUserOnly() throws {
        // Given the group g1 of me, Ana and Ben, with a message, over a journal
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup(), journal: journal)
        try backend.send(BackendFixtures.message("m1", in: "g1"))

        // When I hide it
        try backend.hideConversation("g1", for: "me", as: "me")

        // Then my list no longer has it, Ana's does, and its messages are kept
        let mine = try backend.conversations(of: "me", after: nil, limit: 50).conversations.map(\.id)
        let anas = try backend.conversations(of: "ana", after: nil, limit: 50, as: "ana").conversations.map(\.id)
        #expect(!mine.contains("g1") && mine.contains("c1"))
        #expect(anas.contains("g1"))
        #expect(backend.messageCount(in: "g1") == 1)
        #expect(backend.isHidden("g1", for: "me") && !backend.isHidden("g1", for: "ana"))

        // And a backend rebuilt from the same journal hides it too
        let replayed = try BackendFixtures.backend(BackendFixtures.withGroup(), journal: journal)
        #expect(replayed.isHidden("g1", for: "me"))
        #expect(try !replayed.conversations(of: "me", after: nil, limit: 50).conversations.map(\.id).contains("g1"))
    }

    @Test("only a participant may hide a conversation, and only for themselves; an unknown one is not found")
    func authorization() throws {
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup())

        #expect(throws: DeliveryError.forbidden) { try backend.hideConversation("c1", for: "ana", as: "me") }
        // Not one's conversation is answered as one that does not exist
        #expect(throws: DeliveryError.notFound) { try backend.hideConversation("c2", for: "ana", as: "ana") }
        #expect(throws: DeliveryError.notFound) { try backend.hideConversation("c1", for: "cy", as: "cy") }
        #expect(throws: DeliveryError.notFound) { try backend.hideConversation("nope", for: "me", as: "me") }
        #expect(!backend.isHidden("c1", for: "ana") && !backend.isHidden("c2", for: "ana"))
    }

    @Test("hiding twice changes nothing more, and a new message brings the conversation back")
    func idempotentThenBack() throws {
        let journal = InMemoryBackendJournal()
        let backend = try BackendFixtures.backend(journal: journal)
        try backend.hideConversation("c2")
        let events = try journal.load().count
        try backend.hideConversation("c2")
        #expect(try journal.load().count == events)

        try backend.receive(BackendFixtures.message("b1", in: "c2", from: "ben"))

        #expect(!backend.isHidden("c2", for: "me"))
        #expect(try backend.conversations(of: "me", after: nil, limit: 50).conversations.first?.id == "c2")
    }

    @Test("an expired sign-in refuses the hide and changes nothing")
    func expiredSignIn() throws {
        let backend = try BackendFixtures.backend()
        backend.isSignInExpired = true
        #expect(throws: DeliveryError.unauthorized) { try backend.hideConversation("c2") }
        #expect(!backend.isHidden("c2", for: "me"))
    }
}
