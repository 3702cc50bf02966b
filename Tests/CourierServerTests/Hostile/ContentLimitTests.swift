import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// What one request may make the server store or build: each limit refused with a 422 that names it, nothing stored,
/// a list deduplicated before it is answered, and writes past a user's rate answered 429 with `Retry-After`.
@MainActor
@Suite(.removesTemporaryDirectories) struct ContentLimitTests {
    private func message(_ text: String, id: String = UUID().uuidString) -> Message {
        Message(
            id: MessageID(id), conversationID: "c2", senderID: "me", text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending)
    }

    private func reason(of response: HTTPResponse) -> String {
        (try? HTTPWire.decode(HTTPWire.ErrorBody.self, from: Data(response.body)).reason ?? "") ?? ""
    }

    @Test func oversizedTextIdsNamesAndBatchesAreRefusedNamingTheLimit() throws {
        // Given a router
        let fixture = try RouterFixture()

        // When a text of 4,001 characters, an id of 129 bytes, a batch of 101 and a name of 65 characters are sent
        let long = message(String(repeating: "a", count: 4_001))
        let text = fixture.respond(
            "PUT", "/conversations/c2/messages/\(long.id.rawValue)", body: try HTTPWire.encode(long))
        let longID = message("hi", id: String(repeating: "x", count: 129))
        let id = fixture.respond(
            "PUT", "/conversations/c2/messages/\(longID.id.rawValue)", body: try HTTPWire.encode(longID))
        let batch = fixture.respond(
            "POST", "/conversations/c2/messages:batch",
            body: try HTTPWire.encode(HTTPWire.BatchRequest(messages: (0..<101).map { message("m\($0)") })))
        let name = fixture.respond(
            "PUT", "/users/me/display-name",
            body: try HTTPWire.encode(HTTPWire.DisplayNameBody(name: String(repeating: "n", count: 65))))

        // Then each is 422 and says which limit, and nothing was stored
        #expect(text.status == 422 && reason(of: text).contains("4000 characters"))
        #expect(id.status == 422 && reason(of: id).contains("128 bytes"))
        #expect(batch.status == 422 && reason(of: batch).contains("at most 100 messages"))
        #expect(name.status == 422 && reason(of: name).contains("64 characters"))
        #expect(fixture.backend.messageCount(in: "c2") == 3)
        #expect(fixture.backend.user("me")?.displayName != String(repeating: "n", count: 65))
    }

    @Test func aMessageTimeFarFromTheServersClockIsRefusedAndAClockAheadByHoursIsNot() throws {
        // Given a router on a clock, and messages stamped 23 hours ahead of it (a device clock that runs ahead), 25
        // hours ahead, and in 1970
        let fixture = try RouterFixture()
        let now = fixture.clock.now
        func stamped(_ text: String, _ time: Date) -> Message {
            var message = message(text)
            message.timestamp = time
            return message
        }
        let ahead = stamped("ahead", now.addingTimeInterval(23 * 3_600))
        let future = stamped("future", now.addingTimeInterval(25 * 3_600))
        let past = stamped("past", Date(timeIntervalSince1970: 0))

        // When each is sent, the last two also in a batch
        let answers = try [ahead, future, past].map { message in
            fixture.respond(
                "PUT", "/conversations/c2/messages/\(message.id.rawValue)", body: try HTTPWire.encode(message))
        }
        let batch = fixture.respond(
            "POST", "/conversations/c2/messages:batch",
            body: try HTTPWire.encode(HTTPWire.BatchRequest(messages: [message("fine"), future])))

        // Then the one a few hours ahead is stored; the others are 422 naming the bound, and stored nowhere
        #expect(answers.map(\.status) == [201, 422, 422])
        #expect(reason(of: answers[1]).contains("24 hours past the server's clock"))
        #expect(batch.status == 422 && reason(of: batch).hasPrefix("message 2 of the batch"))
        #expect(fixture.backend.messages(in: "c2").suffix(1).map(\.text) == ["ahead"])
        #expect(fixture.backend.messageCount(in: "c2") == 4)
    }

    @Test func anIdWithMoreThanOneSpellingIsRefusedWhereverItComes() throws {
        // Given a router, and "café" composed (NFC) and decomposed (NFD): one string to Swift, two ids to any store
        // that compares bytes
        let fixture = try RouterFixture()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))

        // When one is a message id in a path, the other one in a batch's body, a user id asked for, a conversation
        // id, and an id with a direction override
        let path = try #require(composed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
        let put = fixture.respond(
            "PUT", "/conversations/c2/messages/\(path)", body: try HTTPWire.encode(message("hi", id: composed)))
        let batch = fixture.respond(
            "POST", "/conversations/c2/messages:batch",
            body: try HTTPWire.encode(HTTPWire.BatchRequest(messages: [message("hi", id: decomposed)])))
        let users = fixture.respond("GET", "/users", query: [("ids", "ben,\(decomposed)")])
        let reads = fixture.respond("GET", "/conversations/\(path)/reads")
        let override = fixture.respond(
            "POST", "/conversations/c2/messages:batch",
            body: try HTTPWire.encode(HTTPWire.BatchRequest(messages: [message("hi", id: "m\u{202E}1")])))

        // Then each is 422 naming the rule, and nothing was stored
        for answer in [put, batch, users, reads, override] {
            #expect(answer.status == 422 && reason(of: answer).contains("visible ASCII"), "\(reason(of: answer))")
        }
        #expect(fixture.backend.messageCount(in: "c2") == 3)
    }

    @Test func aSignInWithAnIdOrPasswordPastItsLimitIsRefusedBeforeAnythingIsRemembered() throws {
        // Given a router
        let fixture = try RouterFixture()

        // When a sign-in sends a 1 MiB user id, then a 2 KiB password
        let longID = HTTPWire.SignInBody(userID: UserID(String(repeating: "u", count: 1_048_576)), password: "x")
        let id = fixture.router.respond(
            to: HTTPRequest(method: "POST", path: "/sessions", body: Array(try HTTPWire.encode(longID))))
        let longPassword = HTTPWire.SignInBody(userID: "me", password: String(repeating: "p", count: 2_048))
        let password = fixture.router.respond(
            to: HTTPRequest(method: "POST", path: "/sessions", body: Array(try HTTPWire.encode(longPassword))))

        // Then both are 422 naming the limit, and no failure is remembered
        #expect(id.status == 422 && reason(of: id).contains("128 bytes"))
        #expect(password.status == 422 && reason(of: password).contains("1024 bytes"))
        #expect(fixture.sessions.trackedFailures == 0)
    }

    @Test func aListOfRepeatedIdsIsAnsweredOnceEach() throws {
        // Given a router
        let fixture = try RouterFixture()

        // When `me` asks for 1,000 copies of two ids (4 KB asked)
        let ids = Array(repeating: "me,ben", count: 500).joined(separator: ",")
        let answer = fixture.respond("GET", "/users", query: [("ids", ids)])

        // Then each user is answered once: the answer is no bigger than the question
        let users = try HTTPWire.decode([User].self, from: Data(answer.body))
        #expect(answer.status == 200 && users.map(\.id) == ["me", "ben"])
        #expect(answer.body.count < 200)
    }

    @Test func writesPastAUsersRateAre429WithRetryAfterUntilTheClockMoves() async throws {
        // Given a rate of 5 writes at once, then 1 a second
        let fixture = try RouterFixture(limits: ContentLimits(writeBurst: 5, writesPerSecond: 1))
        func put() throws -> HTTPResponse {
            let message = message("hi")
            return fixture.respond(
                "PUT", "/conversations/c2/messages/\(message.id.rawValue)", body: try HTTPWire.encode(message))
        }

        // When `me` sends 6 at once, then one more after a second
        let statuses = try (0..<6).map { _ in try put() }
        await fixture.clock.advance(by: .seconds(1))
        let later = try put()

        // Then the sixth was 429 with Retry-After: 1, stored nothing, and a second later a send goes through
        #expect(statuses.map(\.status) == [201, 201, 201, 201, 201, 429])
        #expect(statuses.last?.headers.contains { $0.name == "Retry-After" && $0.value == "1" } == true)
        #expect(later.status == 201)
        #expect(fixture.backend.messageCount(in: "c2") == 3 + 6)
    }

    @Test func trimmingEveryFeedIsADevelopmentRouteOnly() throws {
        // Given a router without development routes and one with them
        let plain = try RouterFixture(devRoutes: false)
        let development = try RouterFixture(devRoutes: true)
        for fixture in [plain, development] {
            let sent = message("for Ben's feed")
            _ = fixture.respond(
                "PUT", "/conversations/c2/messages/\(sent.id.rawValue)", body: try HTTPWire.encode(sent))
        }
        let before = plain.backend.keptEventCount(for: "ben")

        // When `me` asks each to trim every feed
        let refused = plain.respond("POST", "/events/trim")
        let trimmed = development.respond("POST", "/events/trim")

        // Then the plain one answers as for a route that does not exist and Ben's feed is whole
        #expect(refused.status == 404)
        #expect(before > 0 && plain.backend.keptEventCount(for: "ben") == before)
        #expect(trimmed.status == 204 && development.backend.keptEventCount(for: "ben") == 0)
    }
}
