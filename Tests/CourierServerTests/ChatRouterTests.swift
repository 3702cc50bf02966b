import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The routes of the REST contract over an in-memory backend, without sockets.
@MainActor
@Suite(.removesTemporaryDirectories) struct ChatRouterTests {
    let fixture: RouterFixture
    var backend: InMemoryChatBackend { fixture.backend }

    init() throws { fixture = try RouterFixture() }

    private func message(_ text: String, id: String = UUID().uuidString) -> Message {
        Message(
            id: MessageID(id), conversationID: "c2", senderID: "me", text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending)
    }

    @Test func aPutIsCreatedThenAnsweredWithTheStoredMessageThenAConflict() throws {
        let first = message("hi", id: "m1")
        var other = first
        other.text = "changed"
        let statuses = try [first, first, other].map {
            fixture.respond("PUT", "/conversations/c2/messages/m1", body: try JSONEncoder().encode($0)).status
        }
        #expect(statuses == [201, 200, 409])
        #expect(backend.messageCount(in: "c2") == 4)
        #expect(backend.message("m1")?.text == "hi")
    }

    @Test func aBodyThatDoesNotMatchItsPathOrIsNotJSONIsRefused() throws {
        let body = try JSONEncoder().encode(message("hi", id: "m1"))
        #expect(fixture.respond("PUT", "/conversations/c2/messages/m2", body: body).status == 422)
        #expect(fixture.respond("PUT", "/conversations/c3/messages/m1", body: body).status == 422)
        #expect(fixture.respond("PUT", "/conversations/c2/messages/m1", body: Data("{".utf8)).status == 422)
        #expect(backend.messageCount(in: "c2") == 3)
    }

    @Test func aBatchAnswersEachMessageWithItsOwnStatus() throws {
        // Given a stored message, then a batch of a new one, the stored one, the stored id with other text, an empty
        let stored = message("stored", id: "m1")
        _ = try backend.send(stored)
        var reused = stored
        reused.text = "other"
        let batch = HTTPWire.BatchRequest(messages: [message("new"), stored, reused, message(" ")])

        // When it is posted
        let body = try JSONEncoder().encode(batch)
        let response = fixture.respond("POST", "/conversations/c2/messages:batch", body: body)

        // Then each result has the status a PUT alone would have had
        let results = try JSONDecoder().decode(HTTPWire.BatchResponse.self, from: Data(response.body)).results
        #expect(response.status == 200)
        #expect(results.map(\.status) == [201, 200, 409, 422])
        #expect(backend.messageCount(in: "c2") == 5)
    }

    @Test func aMessageRepeatedWithinABatchIsAnsweredAsItsResendWouldBe() throws {
        // Given a batch holding one new message twice, and another after it
        let repeated = message("twice")
        let batch = HTTPWire.BatchRequest(messages: [repeated, repeated, message("after")])

        // When it is posted
        let body = try JSONEncoder().encode(batch)
        let response = fixture.respond("POST", "/conversations/c2/messages:batch", body: body)

        // Then the batch is applied in order: the second copy finds the first stored (200), and it is stored once
        let results = try JSONDecoder().decode(HTTPWire.BatchResponse.self, from: Data(response.body)).results
        #expect(results.map(\.status) == [201, 200, 201])
        #expect(backend.messageCount(in: "c2") == 5)
    }

    @Test func unknownRoutesMethodsAndMissingSignInAreRefused() {
        #expect(fixture.respond("GET", "/nowhere").status == 404)
        #expect(fixture.respond("PATCH", "/conversations/c2/messages/m1").status == 405)
        #expect(fixture.respond("GET", "/conversations/c999").status == 404)
        #expect(fixture.respond("GET", "/users", query: [("ids", "me")], as: nil).status == 401)
        #expect(fixture.respond("GET", "/conversations/c1/messages", query: [("before", "garbage")]).status == 422)
        #expect(fixture.respond("GET", "/conversations/c1/messages", query: [("limit", "1001")]).status == 422)
        #expect(fixture.respond("GET", "/conversations/%zz").status == 400)
    }

    @Test func anExpiredSignInIs401AndChangesNothing() throws {
        backend.isSignInExpired = true
        let body = try JSONEncoder().encode(message("x", id: "m1"))
        let response = fixture.respond("PUT", "/conversations/c2/messages/m1", body: body)
        #expect(response.status == 401)
        #expect(backend.messageCount(in: "c2") == 3)
    }

    @Test func aUserSetsTheirOwnPresenceAndTheirContactsSeeItNobodyElsesPresence() throws {
        // When Ben's device connects (his own token), then me asks about him
        let online = try HTTPWire.encode(HTTPWire.PresenceBody(isOnline: true))
        let set = fixture.router.respond(to: fixture.request("PUT", "/users/ben/presence", body: online, as: "ben"))
        let seen = fixture.router.respond(to: fixture.request("GET", "/presence", query: [("ids", "ben")]))

        // Then it was stored and me sees him online; me cannot set Ben's presence
        #expect(set.status == 204)
        let presence = try JSONDecoder().decode([Presence].self, from: Data(seen.body))
        #expect(presence.map(\.isOnline) == [true])
        let forged = fixture.router.respond(to: fixture.request("PUT", "/users/ben/presence", body: online, as: "me"))
        #expect(forged.status == 403)
    }

    @Test func aParticipantHidesAConversationForThemselvesAndOthersCannot() throws {
        // When I hide c2 (mine), an unknown conversation, and c2 with a GET
        let hidden = fixture.respond("POST", "/conversations/c2/hide")
        let unknown = fixture.respond("POST", "/conversations/nope/hide")
        let wrongMethod = fixture.respond("GET", "/conversations/c2/hide")
        let anonymous = fixture.respond("POST", "/conversations/c1/hide", as: nil)

        // Then only the first hides, and for me alone
        let statuses: [Int] = [hidden.status, unknown.status, wrongMethod.status, anonymous.status].map { Int($0) }
        #expect(statuses == [204, 404, 405, 401])
        #expect(backend.isHidden("c2", for: "me"))
        #expect(!backend.isHidden("c1", for: "me"))
        let list = try backend.conversations(of: "me", after: nil, limit: 50).conversations.map(\.id)
        #expect(!list.contains("c2"))
    }

    @Test func aSenderDeletesTheirMessageForEveryoneAndNoOneElseCan() throws {
        // Given a message of mine in c2
        _ = try backend.send(message("oops", id: "m1"))
        let count = backend.messageCount(in: "c2")

        // When Ben (a participant, not its sender), Ana (not in c2), nobody and I ask to delete it
        let byBen = fixture.respond("DELETE", "/conversations/c2/messages/m1", as: "ben")
        let byAna = fixture.respond("DELETE", "/conversations/c2/messages/m1", as: "ana")
        let anonymous = fixture.respond("DELETE", "/conversations/c2/messages/m1", as: nil)
        let unknown = fixture.respond("DELETE", "/conversations/c2/messages/nope")
        let mine = fixture.respond("DELETE", "/conversations/c2/messages/m1")
        let again = fixture.respond("DELETE", "/conversations/c2/messages/m1")

        // Then only mine deletes (again: nothing more), a stranger learns nothing, and a resend is not stored
        let statuses: [Int] = [byBen, byAna, anonymous, unknown, mine, again].map { Int($0.status) }
        #expect(statuses == [403, 404, 401, 404, 204, 204])
        #expect(backend.messageCount(in: "c2") == count - 1)
        #expect(backend.message("m1") == nil)
        let resend = fixture.respond(
            "PUT", "/conversations/c2/messages/m1", body: try JSONEncoder().encode(message("oops", id: "m1")))
        #expect(resend.status == 200)
        #expect(backend.messageCount(in: "c2") == count - 1)
    }

    @Test("an id used in a conversation Ana is not in tells her nothing: her write with it is a message of her own")
    func anIdOfAConversationOfOthersIsNotThisWritesConcern() throws {
        // Given my message m1 in c2 (Ben's and mine), which Ana cannot see
        _ = try backend.send(message("for Ben only", id: "m1"))
        let mine = try #require(backend.message("m1", in: "c2"))

        // When Ana writes to c1 (hers and mine) with the same id and other content, and with a fresh id
        func ana(_ id: String, _ text: String) -> Message {
            Message(
                id: MessageID(id), conversationID: "c1", senderID: "ana", text: text,
                timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending)
        }
        let reused = fixture.respond(
            "PUT", "/conversations/c1/messages/m1", body: try JSONEncoder().encode(ana("m1", "guess")), as: "ana")
        let fresh = fixture.respond(
            "PUT", "/conversations/c1/messages/m9", body: try JSONEncoder().encode(ana("m9", "guess")), as: "ana")
        let batch = fixture.respond(
            "POST", "/conversations/c1/messages:batch",
            body: try JSONEncoder().encode(HTTPWire.BatchRequest(messages: [ana("m1", "again")])), as: "ana")

        // Then the reused id is answered as a fresh one (201, not 409), and each conversation keeps its own message
        #expect(reused.status == 201)
        #expect(fresh.status == 201)
        #expect(
            try JSONDecoder().decode(HTTPWire.BatchResponse.self, from: Data(batch.body)).results.map(\.status) == [409]
        )
        #expect(backend.message("m1", in: "c2") == mine)
        #expect(backend.message("m1", in: "c1")?.text == "guess")
        #expect(backend.message("m1", in: "c1")?.senderID == "ana")
    }

    @Test("a batch resending a message its sender deleted is answered 200, as its PUT is, and stores nothing")
    func aBatchResendOfADeletedMessageIsADuplicate() throws {
        // Given a message of mine, deleted
        _ = try backend.send(message("oops", id: "m1"))
        #expect(fixture.respond("DELETE", "/conversations/c2/messages/m1").status == 204)
        let count = backend.messageCount(in: "c2")

        // When a batch sends it again
        let body = try JSONEncoder().encode(HTTPWire.BatchRequest(messages: [message("oops", id: "m1")]))
        let response = fixture.respond("POST", "/conversations/c2/messages:batch", body: body)

        // Then it is a duplicate, and the conversation does not hold it again
        let results = try JSONDecoder().decode(HTTPWire.BatchResponse.self, from: Data(response.body)).results
        #expect(results.map(\.status) == [200])
        #expect(backend.messageCount(in: "c2") == count)
        #expect(backend.message("m1", in: "c2") == nil)
    }

    @Test("a list of ids is read off the main actor once, without its repeats, the first of each in order")
    func aPreparedListOfIdsHasNoRepeats() {
        let users = HTTPRequest(method: "GET", path: "/users", query: [("ids", "ana,me,ana,ben,me")])
        let presence = HTTPRequest(method: "GET", path: "/presence", query: [("ids", "me,me")])
        #expect(ChatRouter.prepare(users).route == .success(.users(["ana", "me", "ben"])))
        #expect(ChatRouter.prepare(presence).route == .success(.presence(["me"])))
        #expect(ChatRouter.prepare(HTTPRequest(method: "GET", path: "/%zz")).route == .failure(.badPath))
    }

    /// A batch of `messages` into c2 from me, read and checked as a connection's thread reads it.
    private func screenedBatch(_ messages: [Message]) throws -> HTTPRequest {
        var request = fixture.request(
            "POST", "/conversations/c2/messages:batch",
            body: try JSONEncoder().encode(HTTPWire.BatchRequest(messages: messages)))
        #expect(ContentLimits().screen(&request) == nil)
        return request
    }

    @Test("a batch larger than a turn is applied a turn at a time, each turn stored before the next is asked for")
    func aLargeBatchIsAppliedInTurns() throws {
        // Given a batch of 60 new messages, read and checked as a connection's thread reads it
        let messages = (0..<60).map { message("m\($0)", id: "turn-\(1_000 + $0)") }
        let request = try screenedBatch(messages)
        let before = backend.messageCount(in: "c2")

        // When the router starts it, then continues it turn by turn
        var work = try #require(fixture.router.startBatchInTurns(request))
        var storedAfterEachTurn = [backend.messageCount(in: "c2") - before]
        while !work.isDone {
            work = fixture.router.continueBatch(work)
            storedAfterEachTurn.append(backend.messageCount(in: "c2") - before)
        }

        // Then each turn stored 25 more, and the answer has one result per message, in order
        #expect(ChatRouter.batchTurn == 25)
        #expect(storedAfterEachTurn == [25, 50, 60])
        let response = ChatRouter.response(to: work)
        let results = try JSONDecoder().decode(HTTPWire.BatchResponse.self, from: Data(response.body)).results
        #expect(results.map(\.status) == Array(repeating: 201, count: 60))
        #expect(results.map { $0.message?.id } == messages.map(\.id))
        // and a batch of one turn, or one refused whole, is not started in turns
        #expect(fixture.router.startBatchInTurns(try screenedBatch(Array(messages.prefix(25)))) == nil)
    }

    @Test("a turn of a batch holds at most 32 KB of text: ten messages of 4,000 characters take two turns")
    func aBatchsTurnIsBoundedInBytes() throws {
        // Given a batch of 10 messages of 4,000 characters (40,000 bytes of text)
        let long = String(repeating: "w", count: 4_000)
        let messages = (0..<10).map { message(long, id: "long-\($0)") }
        let request = try screenedBatch(messages)
        let before = backend.messageCount(in: "c2")

        // When the router starts it
        var work = try #require(fixture.router.startBatchInTurns(request))

        // Then the first turn stored 8 (32,000 bytes; a ninth would pass 32,768), the second the other 2
        #expect(backend.messageCount(in: "c2") - before == 8)
        work = fixture.router.continueBatch(work)
        #expect(work.isDone)
        #expect(backend.messageCount(in: "c2") - before == 10)
    }
}
