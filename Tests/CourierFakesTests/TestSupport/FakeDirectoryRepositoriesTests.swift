import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The shared conversation and user backend fakes page, rename and fail as a test sets them up.
@Suite("Fake conversation and user repositories")
struct FakeDirectoryRepositoriesTests {
    private let conversations = (1...5).map { index in
        Conversation(
            id: ConversationID("c\(index)"), participantIDs: ["me"],
            lastActivity: Date(timeIntervalSince1970: 1_000 - Double(index)))
    }

    @Test("conversations page after the cursor in the order given; a failure is thrown while it is set")
    func conversationPages() async throws {
        let backend = FakeConversationRepository(conversations)
        let first = try await backend.conversations(of: "me", after: nil, limit: 2)
        let last = try #require(first.conversations.last)
        let cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
        let second = try await backend.conversations(of: "me", after: cursor, limit: 5)
        backend.fail(with: .offline)
        await #expect(throws: DeliveryError.offline) { try await backend.conversations(of: "me", after: nil, limit: 2) }

        #expect(first == ConversationPage(conversations: Array(conversations[..<2]), hasMore: true))
        #expect(second == ConversationPage(conversations: Array(conversations[2...]), hasMore: false))
        #expect(backend.requests == 3)
        await withKnownIssue("a negative page size") {
            await #expect(throws: FakeCallError.invalidArgument("a page of -1 conversations").deliveryError) {
                try await FakeConversationRepository().conversations(of: "me", after: nil, limit: -1)
            }
        }
    }

    @Test("users answer from the table, renamed ones by their new name, unknown ones left out; every call recorded")
    func users() async throws {
        let backend = FakeUserRepository.numbered(3)
        backend.rename("u2", to: "Ben")
        let found = try await backend.users(["u1", "u2", "nobody"])
        let presence = try await backend.presence(["u3"])
        backend.fail(with: .offline)
        await #expect(throws: DeliveryError.offline) { try await backend.users(["u1"]) }

        #expect(found.map(\.displayName) == ["User 1", "Ben"])
        #expect(presence == [Presence(userID: "u3", isOnline: true)])
        #expect(backend.profileCalls == [["u1", "u2", "nobody"], ["u1"]])
        #expect(backend.presenceCalls == [["u3"]])
    }
}
