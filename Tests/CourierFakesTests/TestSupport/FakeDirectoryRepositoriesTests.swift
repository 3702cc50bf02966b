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
    }

    @Test("a page of no conversations, or any request of a fake made without conversations, fails the test loudly")
    func unexpectedConversationRequests() async {
        // Given a backend holding conversations, and one set up for no request
        let backend = FakeConversationRepository(conversations)
        let unused = FakeConversationRepository()

        // When the first is asked for pages of no conversations, and the second for a page
        for limit in [0, -1, Int.min] {
            await withKnownIssue("a page of \(limit) conversations") {
                await #expect(throws: FakeCallError.invalidArgument("a page of \(limit) conversations").deliveryError) {
                    try await backend.conversations(of: "me", after: nil, limit: limit)
                }
            }
        }
        await withKnownIssue("no request was expected") {
            await #expect(throws: FakeCallError.unexpected("conversations(of:after:limit:)").deliveryError) {
                try await unused.conversations(of: "me", after: nil, limit: 5)
            }
        }

        // Then neither served anything
        #expect(backend.requests == 0 && unused.requests == 0)
    }

    @Test("a cached answer replaces the backend's for the times set, marked cached; latency waits on the clock")
    func cachedAnswersAndLatency() async throws {
        // Given a backend whose requests take 1 s, answering once from a cache that knows the last two only
        let clock = ManualClock()
        let backend = FakeConversationRepository(conversations, clock: clock, latency: .seconds(1))
        backend.answerFromCache(Array(conversations[3...]))

        // When it is asked twice
        let (cached, elapsed) = await clock.drive { try await backend.conversations(of: "me", after: nil, limit: 5) }
        let (fresh, _) = await clock.drive { try await backend.conversations(of: "me", after: nil, limit: 5) }

        // Then the first answer was the cache's, the second the backend's, each after the latency
        let cachedPage = ConversationPage(conversations: Array(conversations[3...]), hasMore: false, isCached: true)
        #expect(try cached.get() == cachedPage)
        #expect(try fresh.get() == ConversationPage(conversations: conversations, hasMore: false))
        #expect(elapsed == 1)
        #expect(backend.requests == 2)
    }

    @Test("users answer from the table, renamed ones by their new name, unknown ones left out; every call recorded")
    func users() async throws {
        let backend = FakeUserRepository.numbered(3, online: ["u3"])
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

    @Test("a user backend made without users or without presence fails the test that asks it for them")
    func unexpectedUserRequests() async {
        // Given a backend set up for no request, and one knowing users but not who is online
        let unused = FakeUserRepository()
        let profilesOnly = FakeUserRepository.numbered(2)

        // When each is asked what it was not set up for
        await withKnownIssue("no request was expected") {
            await #expect(throws: FakeCallError.unexpected("users(_:)").deliveryError) {
                try await unused.users(["u1"])
            }
            await #expect(throws: FakeCallError.unexpected("presence(_:)").deliveryError) {
                try await profilesOnly.presence(["u1"])
            }
        }

        // Then nothing was served
        #expect(unused.profileCalls.isEmpty && profilesOnly.presenceCalls.isEmpty)
    }
}
