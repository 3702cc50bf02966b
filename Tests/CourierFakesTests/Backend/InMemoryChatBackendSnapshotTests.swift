import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The start-over snapshot and how the feed calls are admitted: one consistent answer, refused while sign-in is
/// expired, never counted as repository requests.
@MainActor
@Suite("InMemoryChatBackend: snapshot and feed access")
struct InMemoryChatBackendSnapshotTests {
    @Test("a snapshot is true at the feed's end: its pages are the backend's pages, what follows it is what came after")
    func snapshotIsConsistent() throws {
        // Given messages both ways and a receipt
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup())
        try backend.send(BackendFixtures.message("m0", at: 0))
        try backend.receive(BackendFixtures.message("b1", in: "c2", at: 1, from: "ben"))
        try backend.markReceipt(try backend.receipt(.read, by: "ana", upTo: "m0"))

        // When my device starts over for c1 and c2
        let snapshot = try backend.snapshot(for: "me", conversationLimit: 2, chats: ["c1", "c2"], messageLimit: 10)

        // Then its position is my feed's end, and its pages are what the backend answers to page requests
        #expect(snapshot.position == backend.feedEndPosition(for: "me"))
        #expect(snapshot.position == FeedPosition(3))
        #expect(snapshot.conversations == (try backend.conversations(of: "me", after: nil, limit: 2)))
        #expect(snapshot.conversations.hasMore)
        #expect(snapshot.chats["c1"] == (try backend.messages(in: "c1", before: nil, limit: 10)))
        #expect(snapshot.chats["c2"] == (try backend.messages(in: "c2", before: nil, limit: 10)))
        #expect(snapshot.chats["c1"]?.messages.map(\.status) == [.read])
        #expect(snapshot.conversations.conversations.first { $0.id == "c2" }?.unreadCount == 1)

        // And what happens next is exactly what follows its position
        try backend.send(BackendFixtures.message("m1", at: 2))
        #expect(try backend.feedLines(for: "me", after: snapshot.position) == ["4 message m1"])
    }

    @Test("a snapshot leaves out the chats that are not the user's, and unknown ones")
    func snapshotLeavesOutOthersChats() throws {
        let backend = try BackendFixtures.backend(BackendFixtures.withGroup())
        try backend.receive(BackendFixtures.message("b1", in: "c2", from: "ben"))

        let snapshot = try backend.snapshot(
            for: "ana", conversationLimit: 10, chats: ["c1", "c2", "zz"], messageLimit: 5, as: "ana")

        #expect(snapshot.chats.keys.sorted() == ["c1"])
        #expect(snapshot.conversations.conversations.map(\.id) == ["c1", "g1"])
        #expect(snapshot.position == .start)
    }

    @Test("the feed calls are refused with .unauthorized while sign-in is expired, and change nothing")
    func expiredSignInRefusesFeedCalls() throws {
        let backend = try BackendFixtures.backend(messagesInC1: 2)
        let receipt = try backend.receipt(.read, by: "ana", upTo: "m1")
        let requests = backend.requests
        backend.isSignInExpired = true

        #expect(throws: DeliveryError.unauthorized) { try backend.feedEnd(for: "ana", as: "ana") }
        #expect(throws: DeliveryError.unauthorized) {
            try backend.events(for: "ana", after: .start, limit: 10, wait: .zero, as: "ana")
        }
        #expect(throws: DeliveryError.unauthorized) {
            try backend.snapshot(for: "ana", conversationLimit: 10, chats: ["c1"], messageLimit: 10, as: "ana")
        }
        #expect(throws: DeliveryError.unauthorized) { try backend.mark(receipt, as: "ana") }
        #expect(backend.marker(.read, of: "ana", in: "c1") == nil)
        #expect(backend.requests == requests)

        // Once renewed, they answer
        backend.isSignInExpired = false
        try backend.mark(receipt, as: "ana")
        #expect(try backend.feedEnd(for: "ana", as: "ana") == FeedPosition(3))
        #expect(backend.marker(.read, of: "ana", in: "c1") == "m1")
    }

    @Test("the feed calls are not counted as requests")
    func feedCallsAreNotRequests() throws {
        let backend = try BackendFixtures.backend(messagesInC1: 2)
        let requests = backend.requests

        _ = try backend.feedEnd(for: "ana", as: "ana")
        _ = try backend.events(for: "ana", after: .start, limit: 10, wait: .seconds(30), as: "ana")
        _ = try backend.snapshot(for: "ana", conversationLimit: 10, chats: ["c1"], messageLimit: 10, as: "ana")
        try backend.mark(try backend.receipt(.read, by: "ana", upTo: "m1"), as: "ana")

        #expect(backend.requests == requests)
    }
}
