import CourierData
import CourierDomain
import CourierHTTP
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// `HTTPChatClient`'s event feed against a real `ChatServer` on a loopback port: held long polls, expiry, receipts and
/// snapshots end to end.
///
/// A poll that is answered early takes milliseconds; `hold` only bounds a failing run. It is long, and whether a poll
/// was answered early is read from the server's own count rather than from the test's stopwatch, because a loaded
/// two-core run of the whole suite can keep this test's task from running for tens of seconds.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct EventFeedHTTPTests {
    /// The hold a poll asks for when it should be answered long before it: the longest the contract allows, because in
    /// a whole-suite run a send that ends a poll has waited on the shared main actor for more than 30 s (CI of stop 43).
    private static let hold: Duration = .seconds(60)
    /// Ben's message in c2, which he shares with `me`.
    private static func fromBen(_ text: String) -> Message {
        Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: "c2", senderID: "ben", text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending)
    }

    /// `client`'s long poll after `cursor`, started now, with how long it took.
    private static func poll(
        _ client: HTTPChatClient, after cursor: FeedPosition = .start, wait: Duration
    ) -> Task<(FeedAnswer, Duration), any Error> {
        Task {
            let start = ContinuousClock.now
            let answer = try await client.events(for: client.user, after: cursor, limit: 100, wait: wait)
            return (answer, start.duration(to: .now))
        }
    }

    private static func events(_ answer: FeedAnswer) -> [FeedEvent] {
        guard case .batch(let batch) = answer else { return [] }
        return batch.events
    }

    // MARK: - Long polls

    @Test func aHeldPollAnswersAsSoonAsBenSendsIntoASharedConversation() async throws {
        // Given `me`'s long poll held by the server
        let fixture = try ServerFixture()
        let poll = Self.poll(fixture.client, wait: Self.hold)
        #expect(await fixture.wait { fixture.server.heldPolls == 1 })

        // When Ben sends into c2
        let sent = try await fixture.client(as: "ben").send(Self.fromBen("are you there?"))

        // Then the poll answers with his message, before its time is up
        let (answer, elapsed) = try await poll.value
        #expect(Self.events(answer).map(\.change) == [.message(sent)])
        #expect(answer == .batch(FeedBatch(events: Self.events(answer), end: FeedPosition(1), hasMore: false)))
        // The server's own count says it answered early; the client's stopwatch is not asserted on: in a whole-suite
        // run other suites can keep this task from running for longer than the hold.
        #expect(fixture.server.pollsAnsweredEarly == 1 && fixture.server.pollsRunOut == 0)
        #expect(fixture.server.heldPolls == 0)
        _ = elapsed
    }

    @Test func aHeldPollDoesNotKeepOtherRequestsWaiting() async throws {
        // Given `me`'s long poll held by the server, for the longest hold the contract allows: in a whole-suite run on
        // two cores the three requests below have taken longer than a 30 s hold (CI of stop 38), and a poll that runs
        // out first proves nothing
        let fixture = try ServerFixture()
        let poll = Self.poll(fixture.client, wait: .seconds(60))
        #expect(await fixture.wait { fixture.server.heldPolls == 1 })

        // When `me` and Ana ask for other things meanwhile
        let page = try await fixture.client.messages(in: "c2", before: nil, limit: 10)
        let users = try await fixture.client(as: "ana").users(["ana"])
        let end = try await fixture.client.feedEnd(for: "me")

        // Then they are served while the poll is still held
        #expect(page.messages.count == 3 && users.map(\.id) == ["ana"] && end == .start)
        #expect(fixture.server.heldPolls == 1)
        _ = try await fixture.client(as: "ben").send(Self.fromBen("done"))
        #expect(Self.events(try await poll.value.0).count == 1)
        #expect(fixture.server.pollsAnsweredEarly == 1)
    }

    @Test func aHeldPollOutlivesTheServersRequestAndIdleTimeouts() async throws {
        // Given a server that drops a connection after 300 ms of silence
        let fixture = try ServerFixture(
            limits: HTTPLimits(requestTimeout: .milliseconds(300), idleTimeout: .milliseconds(300)))

        // When `me` polls for a second and nothing comes
        let (answer, elapsed) = try await Self.poll(fixture.client, wait: .seconds(1)).value

        // Then the poll was held its whole second and answered empty, not cut off
        #expect(answer == .batch(FeedBatch(events: [], end: .start, hasMore: false)))
        #expect(elapsed >= .milliseconds(950), "\(elapsed)")
        #expect(fixture.server.pollsRunOut == 1 && fixture.server.pollsAbandoned == 0)
    }

    @Test func pollsBeyondTheCapAre503AndAClientThatLeftFreesItsPlace() async throws {
        // Given a server that holds one poll at most, holding `me`'s
        let fixture = try ServerFixture(
            limits: HTTPLimits(requestTimeout: .milliseconds(300), idleTimeout: .seconds(2), maxHeldPolls: 1))
        let held = Self.poll(fixture.client, wait: Self.hold)
        #expect(await fixture.wait { fixture.server.heldPolls == 1 })

        // When Ben polls too, then he is turned away with a retryable error
        let ben = fixture.client(as: "ben")
        await #expect(throws: DeliveryError.server(code: 503)) {
            try await ben.events(for: "ben", after: .start, limit: 10, wait: Self.hold)
        }

        // When `me` gives up, then the server lets the poll go, and Ben's next poll is held
        held.cancel()
        await #expect(throws: DeliveryError.cancelled) { try await held.value }
        #expect(await fixture.wait { fixture.server.heldPolls == 0 })
        #expect(fixture.server.pollsAbandoned == 1)
        let again = Self.poll(ben, wait: Self.hold)
        #expect(await fixture.wait { fixture.server.heldPolls == 1 })
        _ = try await fixture.client.send(ServerFixture.message("for ben"))
        #expect(Self.events(try await again.value.0).count == 1)
    }

    @Test func stoppingTheServerEndsAHeldPollAtOnce() async throws {
        // Given a held poll
        let fixture = try ServerFixture()
        let poll = Self.poll(fixture.client, wait: Self.hold)
        #expect(await fixture.wait { fixture.server.heldPolls == 1 })

        // When the server stops, then it lets the poll go at once, and the client's poll ends (an answer or a lost
        // connection) long before its time is up
        fixture.tearDown()
        #expect(await fixture.wait { fixture.server.heldPolls == 0 })
        #expect(fixture.server.pollsRunOut == 1)
        // The client's poll ends too (an answer or a lost connection); its stopwatch is not asserted on (see above).
        _ = try? await poll.value
    }

    // MARK: - Expiry

    @Test func aCursorBehindATrimIsExpiredThroughTheClient() async throws {
        // Given two events for `me`, then every feed trimmed through the admin route
        let fixture = try ServerFixture(devRoutes: true)
        let ben = fixture.client(as: "ben")
        _ = try await ben.send(Self.fromBen("one"))
        _ = try await ben.send(Self.fromBen("two"))
        try await fixture.client.trimEvents()

        // When `me` asks from behind (also as a long poll), and from the end
        let behind = try await fixture.client.events(for: "me", after: FeedPosition(1), limit: 10, wait: .zero)
        let (behindHeld, _) = try await Self.poll(fixture.client, after: .start, wait: Self.hold).value
        let atEnd = try await fixture.client.events(for: "me", after: FeedPosition(2), limit: 10, wait: .zero)

        // Then behind is `.expired` at once (never held), and the end is an empty batch
        #expect(behind == .expired && behindHeld == .expired)
        #expect(fixture.server.pollsAnsweredEarly + fixture.server.pollsRunOut == 0)
        #expect(atEnd == .batch(FeedBatch(events: [], end: FeedPosition(2), hasMore: false)))
        #expect(try await fixture.client.feedEnd(for: "me") == FeedPosition(2))
        #expect(fixture.server.backend.keptEventCount(for: "me") == 0)
    }

    // MARK: - Receipts

    @Test func aReceiptMovesTheMarkerAndWakesTheOtherParticipantsPoll() async throws {
        // Given Ben's long poll held by the server
        let fixture = try ServerFixture()
        let ben = fixture.client(as: "ben")
        let poll = Self.poll(ben, wait: Self.hold)
        #expect(await fixture.wait { fixture.server.heldPolls == 1 })

        // When `me` reads c2 up to Ben's newest message
        let newest = try #require(fixture.server.backend.message("c2-m0003"))
        try await fixture.client.mark(Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: newest.cursor))

        // Then the marker moved, the reads show it, and Ben's poll answers with the receipt
        #expect(fixture.server.backend.marker(.read, of: "me", in: "c2") == "c2-m0003")
        #expect(try await fixture.client.reads(in: "c2") == ["me": "c2-m0003", "ben": nil])
        let (answer, _) = try await poll.value
        #expect(
            Self.events(answer).map(\.change)
                == [.receipt(Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: newest.cursor))])
        #expect(fixture.server.pollsAnsweredEarly == 1)
        // And Ben's own delivered receipt moves his marker the same way
        try await ben.mark(Receipt(conversationID: "c2", userID: "ben", kind: .delivered, upTo: newest.cursor))
        #expect(fixture.server.backend.marker(.delivered, of: "ben", in: "c2") == "c2-m0003")
    }

    @Test func receiptsThatCannotApplyAreTheirDeliveryErrors() async throws {
        let fixture = try ServerFixture()
        let cursor = MessageCursor(timestamp: Date(timeIntervalSinceReferenceDate: 0), id: "c2-m0003")
        await #expect(throws: DeliveryError.notFound) {
            try await fixture.client.mark(Receipt(conversationID: "c999", userID: "me", kind: .read, upTo: cursor))
        }
        await #expect(throws: DeliveryError.notFound) {  // not hers: as if it did not exist
            try await fixture.client(as: "ana").mark(
                Receipt(conversationID: "c2", userID: "ana", kind: .read, upTo: cursor))
        }
        await #expect(throws: DeliveryError.validation(reason: "the receipt names no message of this conversation")) {
            try await fixture.client.mark(
                Receipt(
                    conversationID: "c2", userID: "me", kind: .read,
                    upTo: MessageCursor(timestamp: cursor.timestamp, id: "c1-m0001")))
        }
        await #expect(throws: DeliveryError.validation(reason: "a receipt over HTTP is the signed-in user's")) {
            try await fixture.client.mark(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: cursor))
        }
        await #expect(throws: DeliveryError.notFound) { try await fixture.client.reads(in: "c999") }
        #expect(fixture.server.backend.marker(.read, of: "me", in: "c2") == nil)
    }

    // MARK: - What comes back

    @Test func eventsAndSnapshotsComeBackAsTheBackendHasThem() async throws {
        // Given a message, a read receipt and a delivered one in `me`'s feed
        let fixture = try ServerFixture()
        let ben = fixture.client(as: "ben")
        let sent = try await ben.send(Self.fromBen("hello"))
        try await fixture.client.mark(Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: sent.cursor))
        let backend = fixture.server.backend

        // When `me` reads the feed and a snapshot over HTTP
        let events = try await fixture.client.events(for: "me", after: .start, limit: 2, wait: .zero)
        let snapshot = try await fixture.client.snapshot(
            for: "me", conversationLimit: 3, chats: ["c2", "c1"], messageLimit: 5)

        // Then they equal what the backend answers, timestamps bit for bit
        #expect(events == (try backend.events(for: "me", after: .start, limit: 2, wait: .zero, as: "me")))
        #expect(
            snapshot
                == (try backend.snapshot(
                    for: "me", conversationLimit: 3, chats: ["c2", "c1"], messageLimit: 5, as: "me")))
        #expect(snapshot.chats["c2"]?.messages.last?.status == .read)
        #expect(try await fixture.client.feedEnd(for: "me") == FeedPosition(2))
    }
}
