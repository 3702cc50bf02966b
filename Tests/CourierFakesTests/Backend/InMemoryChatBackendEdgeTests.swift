import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Paging and unread counts at their edges, as a user scrolling up or reading the list would notice them.
@MainActor
@Suite("InMemoryChatBackend: edges")
struct InMemoryChatBackendEdgeTests {
    @Test("a page that stops one message short of the start says there is more, and the next page holds it")
    func pageOneShortOfTheStart() throws {
        // Given a conversation of three messages
        let backend = try BackendFixtures.backend(messagesInC1: 3)

        // When the newest two are loaded, then the rest
        let newest = try backend.messages(in: "c1", before: nil, limit: 2)
        let cursor = try #require(newest.messages.first).cursor
        let older = try backend.messages(in: "c1", before: cursor, limit: 2)

        // Then the first page says more is there, and the second holds the first message and ends the history
        #expect(newest.messages.map(\.id) == ["m1", "m2"])
        #expect(newest.hasMore)
        #expect(older == MessagePage(messages: [try #require(backend.message("m0"))], hasMore: false))
    }

    @Test("the user's own messages leave the unread count alone; someone else's raise it")
    func unreadCountsOthersOnly() throws {
        let backend = try BackendFixtures.backend()
        let before = try #require(backend.conversation("c1")).unreadCount

        // When the user sends two messages and Ana one
        try backend.send(BackendFixtures.message("mine1", at: 1))
        try backend.send(BackendFixtures.message("mine2", at: 2))
        try backend.receive(BackendFixtures.message("hers", at: 3, from: "ana"))

        // Then only Ana's counts as unread
        #expect(backend.conversation("c1")?.unreadCount == before + 1)
    }
}
