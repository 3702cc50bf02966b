import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The event feed's routes over an in-memory backend, without sockets: events, the long poll's hold, expiry,
/// snapshots, receipts and the admin routes.
@MainActor
@Suite(.removesTemporaryDirectories) struct ChatRouterFeedTests {
    let fixture: RouterFixture
    var backend: InMemoryChatBackend { fixture.backend }

    init() throws { fixture = try RouterFixture() }

    private func decode<Value: Decodable>(_ type: Value.Type, _ response: HTTPResponse) throws -> Value {
        try HTTPWire.decode(type, from: Data(response.body))
    }

    /// Ben's message in c2 (shared with `me`), stored as if it had arrived.
    @discardableResult
    private func benSays(_ text: String) throws -> Message {
        try backend.receive(
            Message(
                id: MessageID(UUID().uuidString), conversationID: "c2", senderID: "ben", text: text,
                timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending))
    }

    private func receiptBody(_ kind: Receipt.Kind, _ id: MessageID) throws -> Data {
        try HTTPWire.encode(
            HTTPWire.ReceiptBody(kind: kind, messageID: id, timestamp: Date(timeIntervalSinceReferenceDate: 0)))
    }

    // MARK: - Events

    @Test func eventsComeOldestFirstInPagesWithTheCursorToAskWithNext() throws {
        // Given three messages from Ben in c2
        let sent = try ["one", "two", "three"].map { try benSays($0) }

        // When `me` reads two after the start, then the rest, then everything kept without a cursor
        let first = try decode(
            HTTPWire.EventsBody.self, fixture.respond("GET", "/events", query: [("after", "0"), ("limit", "2")]))
        let rest = try decode(
            HTTPWire.EventsBody.self, fixture.respond("GET", "/events", query: [("after", "\(first.end)")]))
        let all = try decode(HTTPWire.EventsBody.self, fixture.respond("GET", "/events"))

        // Then the pages are in feed order, without a gap or an overlap, and Ana (not in c2) hears nothing
        #expect(first.events.map(\.position) == [FeedPosition(1), FeedPosition(2)])
        #expect(first.end == FeedPosition(2) && first.hasMore)
        #expect(rest.events.map(\.position) == [FeedPosition(3)] && rest.end == FeedPosition(3) && !rest.hasMore)
        #expect(all.events.compactMap(\.message) == sent)
        #expect(all.events.map(\.type) == ["message", "message", "message"])
        let ana = try decode(HTTPWire.EventsBody.self, fixture.respond("GET", "/events", as: "ana"))
        #expect(ana.events.isEmpty && ana.end == .start)
        let end = try decode(HTTPWire.FeedEndBody.self, fixture.respond("GET", "/events/end"))
        #expect(end.position == FeedPosition(3))
    }

    @Test func everyUserAsksForTheEndOfTheirOwnFeed() throws {
        // Given two messages from Ben in c2, which both `me` and Ben hear
        try benSays("one")
        try benSays("two")

        // When Ben, who is not the backend's demo `signedInUser`, asks where his feed ends
        let response = fixture.respond("GET", "/events/end", as: "ben")

        // Then he is answered with his own feed's end, the one his events read (the conformance kit found a 403)
        #expect(response.status == 200)
        let events = try decode(HTTPWire.EventsBody.self, fixture.respond("GET", "/events", as: "ben"))
        #expect(try decode(HTTPWire.FeedEndBody.self, response).position == events.end)
        #expect(events.events.count == 2)
    }

    @Test func aLongPollWithNothingWaitingIsHeldUntilTheUsersFeedGrows() throws {
        // Given a long poll at the end of `me`'s feed
        let route = fixture.router.route(fixture.request("GET", "/events", query: [("after", "0"), ("timeout", "5")]))
        guard case .hold(let poll) = route else {
            Issue.record("a long poll with nothing waiting was answered at once: \(route)")
            return
        }

        // Then it waits for `me`, is not ready while nothing comes, and answers empty when its time is up
        #expect(poll.user == "me" && poll.after == .start && poll.limit == 100)
        #expect(poll.deadline > .now + .seconds(4))
        #expect(fixture.router.answerIfReady(poll) == nil)
        let empty = try decode(HTTPWire.EventsBody.self, fixture.router.answer(poll))
        #expect(empty.events.isEmpty && empty.end == .start)

        // When Ben writes into c2, then it is ready with his message
        let message = try benSays("here")
        let ready = try #require(fixture.router.answerIfReady(poll))
        #expect(ready.status == 200)
        #expect(try decode(HTTPWire.EventsBody.self, ready).events.compactMap(\.message) == [message])
    }

    @Test func aLongPollWithEventsWaitingOrNoTimeoutIsAnsweredAtOnce() throws {
        try benSays("waiting")
        let waiting = fixture.router.route(
            fixture.request("GET", "/events", query: [("after", "0"), ("timeout", "5")]))
        let noTimeout = fixture.router.route(
            fixture.request("GET", "/events", query: [("after", "1"), ("timeout", "0")]))
        guard case .answer(let answer) = waiting, case .answer(let empty) = noTimeout else {
            Issue.record("held: \(waiting), \(noTimeout)")
            return
        }
        #expect(try decode(HTTPWire.EventsBody.self, answer).events.count == 1)
        #expect(try decode(HTTPWire.EventsBody.self, empty).events.isEmpty)
        // fixture.respond(to:) never holds: a long poll is answered with what waits now
        #expect(fixture.respond("GET", "/events", query: [("after", "1"), ("timeout", "5")]).status == 200)
    }

    @Test func malformedEventQueriesAre422AndNeverHeld() {
        let queries: [[(String, String)]] = [
            [("after", "-1")], [("after", "x")], [("timeout", "61")], [("timeout", "nan")], [("timeout", "-1")],
            [("limit", "0")], [("limit", "1001")], [("after", "0"), ("timeout", "soon")],
        ]
        for query in queries {
            #expect(fixture.router.route(fixture.request("GET", "/events", query: query)).status == 422, "\(query)")
        }
    }

    @Test func aCursorBehindWhatIsKeptOrBeyondTheEndAnswers410() throws {
        // Given two events for `me`, then every feed trimmed
        try benSays("one")
        try benSays("two")
        #expect(fixture.respond("POST", "/events/trim").status == 204)

        // When `me` asks from behind, at the end, and beyond it
        let behind = fixture.respond("GET", "/events", query: [("after", "0")])
        let behindHeld = fixture.router.route(
            fixture.request("GET", "/events", query: [("after", "1"), ("timeout", "5")]))
        let atEnd = fixture.respond("GET", "/events", query: [("after", "2")])
        let beyond = fixture.respond("GET", "/events", query: [("after", "9")])

        // Then behind and beyond are 410 expired (never held), the end is an empty batch
        #expect(behind.status == 410 && beyond.status == 410)
        #expect(try decode(HTTPWire.ErrorBody.self, behind).error == "expired")
        #expect(behindHeld.status == 410)
        #expect(atEnd.status == 200 && backend.keptEventCount(for: "me") == 0)
        #expect(try decode(HTTPWire.EventsBody.self, fixture.respond("GET", "/events")).end == FeedPosition(2))
    }

    @Test func anExpiredSignInIs401AndNeverHeld() {
        backend.isSignInExpired = true
        #expect(fixture.router.route(fixture.request("GET", "/events", query: [("timeout", "5")])).status == 401)
        #expect(fixture.respond("GET", "/events/end").status == 401)
        #expect(fixture.respond("GET", "/snapshot").status == 401)
        #expect(fixture.respond("GET", "/events", as: nil).status == 401)
    }

    // MARK: - Snapshot

    @Test func aSnapshotHoldsTheListPageAndTheUsersOwnChatsAtOnePosition() throws {
        // Given an event for Ben
        try benSays("latest")

        // When Ben asks for a snapshot of c2 and c1 (not his), two messages each
        let response = fixture.respond(
            "GET", "/snapshot", query: [("conversations", "2"), ("chats", "c2,c1"), ("messages", "2")], as: "ben")
        let body = try decode(HTTPWire.SnapshotBody.self, response)

        // Then it is true at his feed's end, lists his conversations, and brings c2's newest page only
        #expect(body.position == FeedPosition(1))
        #expect(body.conversations.conversations.map(\.id) == ["c2"] && !body.conversations.hasMore)
        #expect(Array(body.chats.keys) == ["c2"])
        let page = try #require(body.chats["c2"])
        #expect(page.messages.map(\.text).last == "latest" && page.messages.count == 2 && page.hasMore)
        #expect(page.nextCursor == page.messages.first.map { HTTPWire.text(of: $0.cursor) })
        let expected = try backend.snapshot(
            for: "ben", conversationLimit: 2, chats: ["c2", "c1"], messageLimit: 2, as: "ben")
        #expect(body.snapshot == expected)
    }

    @Test func snapshotLimitsAreChecked() {
        let many = (1...101).map { "c\($0)" }.joined(separator: ",")
        #expect(fixture.respond("GET", "/snapshot", query: [("chats", many)]).status == 422)
        #expect(fixture.respond("GET", "/snapshot", query: [("messages", "0")]).status == 422)
        #expect(fixture.respond("GET", "/snapshot", query: [("conversations", "1001")]).status == 422)
    }

    // MARK: - Receipts and reads

    @Test func aReceiptMovesTheSignedInUsersMarkerAndReachesTheOtherParticipant() throws {
        // When `me` reads c2 up to Ben's newest message
        let response = fixture.respond("POST", "/conversations/c2/receipts", body: try receiptBody(.read, "c2-m0003"))

        // Then the marker moved, the reads say so, and Ben's feed carries the receipt with the stored cursor
        #expect(response.status == 204 && response.body.isEmpty)
        #expect(backend.marker(.read, of: "me", in: "c2") == "c2-m0003")
        let reads = try decode(HTTPWire.ReadsBody.self, fixture.respond("GET", "/conversations/c2/reads", as: "ben"))
        #expect(reads.reads == ["me": "c2-m0003", "ben": nil])
        #expect(fixture.respond("GET", "/conversations/c2/reads", as: "ana").status == 404)  // not hers: as unknown
        let ben = try decode(HTTPWire.EventsBody.self, fixture.respond("GET", "/events", as: "ben"))
        let receipt = try #require(ben.events.first?.receipt)
        #expect(ben.events.map(\.type) == ["receipt"])
        #expect(receipt.userID == "me" && receipt.kind == .read && receipt.upTo.id == "c2-m0003")
        #expect(receipt.upTo == backend.message("c2-m0003")?.cursor)
    }

    @Test func receiptsAnswerTheStatusOfTheirDeliveryError() throws {
        let body = try receiptBody(.delivered, "c2-m0003")
        #expect(fixture.respond("POST", "/conversations/c999/receipts", body: body).status == 404)
        #expect(fixture.respond("POST", "/conversations/c2/receipts", body: body, as: "ana").status == 404)
        let foreign = try receiptBody(.read, "c1-m0001")
        #expect(fixture.respond("POST", "/conversations/c2/receipts", body: foreign).status == 422)
        let unknownKind = Data("{\"kind\":\"seen\"}".utf8)
        #expect(fixture.respond("POST", "/conversations/c2/receipts", body: unknownKind).status == 422)
        #expect(fixture.respond("POST", "/conversations/c2/receipts", body: body, as: nil).status == 401)
        #expect(backend.marker(.delivered, of: "me", in: "c2") == nil)
        #expect(fixture.respond("GET", "/conversations/c999/reads").status == 404)
    }

    // MARK: - Routes

    @Test func feedRoutesRefuseOtherMethodsAndUnknownPaths() {
        #expect(fixture.respond("DELETE", "/events").status == 405)
        #expect(fixture.respond("POST", "/events/end").status == 405)
        #expect(fixture.respond("GET", "/events/trim").status == 405)
        #expect(fixture.respond("PUT", "/snapshot").status == 405)
        #expect(fixture.respond("GET", "/conversations/c2/receipts").status == 405)
        #expect(fixture.respond("POST", "/conversations/c2/reads").status == 405)
        #expect(fixture.respond("GET", "/events/start").status == 404)
    }
}

extension ChatRoute {
    /// The status answered at once; 0 for a held poll.
    fileprivate var status: Int {
        switch self {
        case .answer(let response): response.status
        case .hold: 0
        }
    }
}
