import CourierData
import CourierDomain
import CourierHTTP
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The URLSession repositories against a real `ChatServer` on a loopback port: the REST contract end to end.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct HTTPChatClientTests {
    // MARK: - Sending

    @Test func aResendWithTheSameIdIsStoredOnceAndOtherContentIsAConflict() async throws {
        // Given a server and a message sent once
        let fixture = try ServerFixture()
        let message = ServerFixture.message("hello")
        let stored = try await fixture.client.send(message)

        // When the same message is sent again, then the same id with other text
        let again = try await fixture.client.send(message)
        var changed = message
        changed.text = "goodbye"
        await #expect(throws: DeliveryError.conflict) { try await fixture.client.send(changed) }

        // Then the server holds it once, with the first text, and counted the duplicate
        #expect(stored.status == .sent && again == stored)
        #expect(fixture.server.backend.messageCount(in: "c2") == 4)
        #expect(fixture.server.backend.message(message.id)?.text == "hello")
        #expect(fixture.server.backend.duplicatesIgnored == 1)
    }

    @Test func aBatchIsOneRequestAppliedInOrderWithOneResultEach() async throws {
        // Given three new messages, a duplicate of an earlier one and an empty one
        let fixture = try ServerFixture()
        let earlier = try await fixture.client.send(ServerFixture.message("earlier", at: 789_000_000))
        let fresh = (1...3).map { ServerFixture.message("m\($0)", at: 789_000_000 + Double($0)) }
        let empty = ServerFixture.message("  ", at: 789_000_010)
        let requestsBefore = fixture.server.backend.requests

        // When they go as one batch
        let results = try await fixture.client.sendBatch(fresh + [earlier, empty])

        // Then one request stored the three in compose order, answered the duplicate and refused the empty one
        #expect(fixture.server.backend.requests == requestsBefore + 1)
        #expect(try results.prefix(4).map { try $0.get().text } == ["m1", "m2", "m3", "earlier"])
        #expect(results[4] == .failure(.validation(reason: "a message cannot be empty")))
        #expect(fixture.server.backend.messages(in: "c2").suffix(4).map(\.text) == ["earlier", "m1", "m2", "m3"])
    }

    // MARK: - Reading

    @Test func messagePagesFollowTheCursorWithoutGapsOrOverlap() async throws {
        // Given c1's 1,000 messages on the server
        let fixture = try ServerFixture()

        // When the client reads three pages of 50 backwards
        var loaded: [Message] = []
        var cursor: MessageCursor?
        var hasMore = true
        for _ in 0..<3 where hasMore {
            let page = try await fixture.client.messages(in: "c1", before: cursor, limit: 50)
            loaded = page.messages + loaded
            cursor = page.messages.first?.cursor
            hasMore = page.hasMore
        }

        // Then they are the newest 150, in compose order, as the server keeps them
        #expect(loaded == Array(fixture.server.backend.messages(in: "c1").suffix(150)))
        #expect(hasMore)
    }

    @Test func thePagesTokenGoesBackAsTheServerGaveIt() async throws {
        // Given c1's newest page of 50, which carries the server's token for the page before it
        let fixture = try ServerFixture()
        let newest = try await fixture.client.messages(in: "c1", before: nil, limit: 50)
        let token = try #require(newest.olderCursor?.token)

        // When the next request carries that token with a position the device made up
        let older = try await fixture.client.messages(
            in: "c1", before: MessageCursor(timestamp: .distantFuture, id: "made-up", token: token), limit: 50)

        // Then the server answered the page the token names: the 50 before the newest page
        let all = fixture.server.backend.messages(in: "c1")
        #expect(older.messages == Array(all.suffix(100).prefix(50)))
    }

    @Test func conversationPagesCoverTheWholeListOnce() async throws {
        let fixture = try ServerFixture()
        var ids: [ConversationID] = []
        var cursor: ConversationCursor?
        var pages = 0
        while pages < 5 {
            let page = try await fixture.client.conversations(of: "me", after: cursor, limit: 50)
            ids += page.conversations.map(\.id)
            pages += 1
            guard page.hasMore, let last = page.conversations.last else { break }
            cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
        }
        #expect(pages == 3)
        #expect(ids == fixture.server.backend.conversationIDs)
    }

    @Test func usersAndPresenceAreOnlyOfThoseOneSharesAConversationWith() async throws {
        let fixture = try ServerFixture()
        let users = try await fixture.client.users(["ana", "me", "ben"])
        let presence = try await fixture.client.presence(["ana"])
        #expect(users.map(\.id) == ["ana", "me", "ben"])
        #expect(users.first?.displayName == "Ana")
        #expect(presence.map(\.userID) == ["ana"])
        // An id nobody shares a conversation with (unknown or not) is refused, and says nothing of who exists
        await #expect(throws: DeliveryError.forbidden) { try await fixture.client.users(["ana", "nobody"]) }
        await #expect(throws: DeliveryError.forbidden) { try await fixture.client.presence(["nobody"]) }
    }

    // MARK: - Errors

    @Test func statusesBecomeTheDeliveryErrorsTheRetryPolicyKnows() async throws {
        // Given a server
        let fixture = try ServerFixture()

        // Then an unknown conversation is notFound, an empty text a validation error, an expired sign-in unauthorized
        await #expect(throws: DeliveryError.notFound) {
            try await fixture.client.send(ServerFixture.message("x", in: "c999"))
        }
        await #expect(throws: DeliveryError.validation(reason: "a message cannot be empty")) {
            try await fixture.client.send(ServerFixture.message(" "))
        }
        await #expect(throws: DeliveryError.validation(reason: "limit must be a whole number from 1 to 1000")) {
            try await fixture.client.messages(in: "c1", before: nil, limit: 0)
        }
        fixture.server.backend.isSignInExpired = true
        await #expect(throws: DeliveryError.unauthorized) {
            try await fixture.client.send(ServerFixture.message("x"))
        }
        #expect(fixture.server.backend.messageCount(in: "c2") == 3)
    }

    @Test func aStoppedServerIsARetryableError() async throws {
        // Given a server that has stopped
        let fixture = try ServerFixture()
        let client = fixture.client
        fixture.tearDown()

        // When the client sends, then the refusal is retryable
        do {
            _ = try await client.send(ServerFixture.message("x"))
            Issue.record("a send to a stopped server succeeded")
        } catch {
            #expect(error.isRetryable, "\(error)")
        }
    }

    @Test func aServerThatNeverAnswersIsUnansweredNotATimeout() async throws {
        // Given a loopback socket that accepts connections but never answers
        let silent = try SocketServer(port: 0, limits: HTTPLimits(requestTimeout: .seconds(5))) { _ in
            Thread.sleep(forTimeInterval: 3)
            return HTTPResponse(status: 200)
        }
        silent.start()
        defer { silent.stop() }
        let client = HTTPChatClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(silent.port)")), user: "me",
            timeout: .seconds(1))

        // When the client sends, then it gives up at its bound: the server is unreachable (lie-fi), and the send's
        // outcome is unknown
        await #expect(throws: DeliveryError.unanswered) { try await client.send(ServerFixture.message("x")) }
        #expect(DeliveryError.unanswered.mayHaveBeenApplied && DeliveryError.unanswered.isBackendUnreachable)
    }

    @Test func aBaseURLsPathIsKeptAndIdsGoEncoded() async throws {
        // Given a server that records what it is asked and answers an empty list, and a client of it under /api/
        let asked = AskedRequests()
        let server = try SocketServer(port: 0) { request in
            asked.append(request)
            return HTTPResponse(status: 200, body: Array("[]".utf8))
        }
        server.start()
        defer { server.stop() }
        let client = HTTPChatClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)/api/")), user: "me",
            timeout: .seconds(60)
        )

        // When it asks for users and deletes a message, with ids a URL reserves characters of
        _ = try await client.users(["a/b", "c d"])
        try await client.deleteMessage("m/1?", in: "c 1")

        // Then both went below /api, ids encoded whole, asking for JSON, and the route table reads them as sent
        let requests = asked.all
        #expect(requests.map(\.path) == ["/api/users", "/api/conversations/c%201/messages/m%2F1%3F"])
        #expect(requests.allSatisfy { $0.header("accept") == "application/json" })
        let routes = requests.map {
            HTTPRoute.parse(method: $0.method, path: String($0.path.dropFirst(4)), query: $0.query)
        }
        #expect(routes == [.success(.users(["a/b", "c d"])), .success(.deleteMessage("c 1", "m/1?"))])
    }
}

/// What a test server was asked, from its connections' threads.
private final class AskedRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [HTTPRequest] = []

    var all: [HTTPRequest] { lock.withLock { requests } }

    func append(_ request: HTTPRequest) { lock.withLock { requests.append(request) } }
}
