import CourierBench
import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// What one client can take from everyone else's connections: token-less floods, one user's held polls and
/// connections. Each attack runs on real sockets to a real server, bounded in count and time, while `me` sends; every
/// honest send must get through.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct AdmissionAttackTests {
    private static let limits = HTTPLimits(requestTimeout: .seconds(2), idleTimeout: .seconds(10))

    /// Opens `count` sockets off the main actor, each sending `request` (nothing when empty) and reading its answer:
    /// the statuses, and the sockets still open.
    private func open(
        _ count: Int, sending request: String, port: UInt16
    ) async -> (statuses: [Int], sockets: [LoopbackSocket]) {
        await OwnThread {
            var statuses: [Int] = []
            var sockets: [LoopbackSocket] = []
            for _ in 0..<count {
                guard let socket = LoopbackSocket(port: port) else {
                    statuses.append(0)
                    continue
                }
                if !request.isEmpty {
                    socket.send(request)
                    // A generous bound: a loaded machine (every suite at once on two cores) may take seconds to answer.
                    statuses.append(socket.readAnswer(timeout: .seconds(60)).status ?? 0)
                }
                sockets.append(socket)
            }
            return (statuses, sockets)
        }.value
    }

    @Test func tokenlessConnectionsAreRefusedClosedAndCannotKeepASignedInUserOut() async throws {
        // Given a server and 64 connections that each sent a request without a token, then 64 that sent nothing
        let fixture = try ServerFixture(limits: Self.limits)
        let port = fixture.server.port
        let refused = await open(64, sending: "GET /events/end HTTP/1.1\r\nHost: h\r\n\r\n", port: port)
        let closed = await OwnThread { refused.sockets.allSatisfy { $0.isClosedByServer(within: .seconds(60)) } }
            .value
        let idle = await open(64, sending: "", port: port)

        // When I sign in and send while they are held open
        let run = await HonestUser(client: fixture.client).send(20)

        // Then each token-less request was 401 and its connection closed, and every one of my sends got through
        #expect(refused.statuses == Array(repeating: 401, count: 64))
        #expect(closed)
        #expect(run.succeeded == 20, "\(run.failures)")
        #expect(fixture.server.openConnections <= Self.limits.maxAnonymousConnections + 2)
        withExtendedLifetime(idle.sockets) {}
    }

    @Test func oneUserHoldsAtMostItsShareOfLongPollsAndConnections() async throws {
        // Given Ana at the end of her feed
        let fixture = try ServerFixture(limits: Self.limits)
        let ana = try fixture.token(for: "ana")
        let end = fixture.server.backend.feedEndPosition(for: "ana").number ?? 0
        // The longest hold the contract allows: on a loaded machine the test's own sends may take half a minute, and
        // the polls must still be held when they end.
        let poll = "GET /events?after=\(end)&timeout=60 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(ana)\r\n\r\n"
        let port = fixture.server.port

        // When she opens 64 connections, each holding a long poll
        let sockets = await OwnThread { () -> [LoopbackSocket] in
            (0..<64).compactMap { _ in
                let socket = LoopbackSocket(port: port)
                socket?.send(poll)
                return socket
            }
        }.value
        #expect(await fixture.wait(until: { fixture.server.heldPolls == Self.limits.maxHeldPollsPerUser }))
        // Every other connection is answered and closed: the server keeps only the held polls' connections.
        #expect(await fixture.wait(until: { fixture.server.openConnections == Self.limits.maxHeldPollsPerUser }))
        let refused = 64 - Self.limits.maxHeldPollsPerUser
        let refusedAndClosed = await OwnThread {
            // Each close is looked for again until all the refused are seen closed: a loaded machine may
            // deliver one later than the server's count of its connections says (a whole-suite run: up to 60 s).
            var closed = Set<Int>()
            let deadline = ContinuousClock.now + .seconds(60)
            while closed.count < refused, ContinuousClock.now < deadline {
                for (index, socket) in sockets.enumerated()
                where !closed.contains(index) && socket.isClosedByServer(within: .milliseconds(20)) {
                    closed.insert(index)
                }
            }
            return closed.count
        }.value

        // Then she holds 4 polls, the other 60 were refused and closed, and my sends all get through
        let run = await HonestUser(client: fixture.client).send(20)
        #expect(fixture.server.heldPolls == Self.limits.maxHeldPollsPerUser)
        #expect(refusedAndClosed == refused)
        #expect(run.succeeded == 20, "\(run.failures)")
    }

    @Test func oneUsersKeptAliveConnectionsPastTheirShareAre429AndClosed() async throws {
        // Given Ana's token
        let fixture = try ServerFixture(limits: Self.limits)
        let ana = try fixture.token(for: "ana")

        // When she opens 24 kept-alive connections, each signed in by one request
        let opened = await open(
            24, sending: "GET /events/end HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(ana)\r\n\r\n",
            port: fixture.server.port)

        // Then 16 were answered 200 and stay open, the other 8 were 429; my sends all get through
        #expect(opened.statuses.filter { $0 == 200 }.count == Self.limits.maxConnectionsPerUser)
        #expect(opened.statuses.filter { $0 == 429 }.count == 24 - Self.limits.maxConnectionsPerUser)
        let run = await HonestUser(client: fixture.client).send(20)
        #expect(run.succeeded == 20, "\(run.failures)")
        withExtendedLifetime(opened.sockets) {}
    }

    @Test func revokingATokenAnswersItsHeldPoll401AtOnce() async throws {
        // Given a long poll of Ana's held for 60 s (the longest the contract allows: the revocation must come first
        // even in a starved whole-suite run)
        let fixture = try ServerFixture(limits: Self.limits)
        let ana = try fixture.token(for: "ana")
        let end = fixture.server.backend.feedEndPosition(for: "ana").number ?? 0
        let port = fixture.server.port
        let poller = try #require(LoopbackSocket(port: port))
        poller.send("GET /events?after=\(end)&timeout=60 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(ana)\r\n\r\n")
        #expect(await fixture.wait(until: { fixture.server.heldPolls == 1 }))

        // When the token is revoked on another connection
        let revoke = await OwnThread {
            let socket = LoopbackSocket(port: port)
            socket?.send("DELETE /sessions/current HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(ana)\r\n\r\n")
            return socket?.readAnswer(timeout: .seconds(60)).status
        }.value
        let answer = await OwnThread { poller.readAnswer(timeout: .seconds(60)).status }.value

        // Then the held poll is answered 401, woken by the revocation, not at its deadline
        #expect(revoke == 204)
        #expect(answer == 401)
        #expect(fixture.server.pollsAnsweredEarly == 1)
        #expect(fixture.server.pollsRunOut == 0)
    }
}

/// Sign-in throttling over real sockets, the attacker on another loopback address (another client to the server).
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct SignInAttackTests {
    private func signIn(_ password: String, from source: UInt8, port: UInt16) async throws -> Int? {
        let body = String(
            decoding: try HTTPWire.encode(HTTPWire.SignInBody(userID: "me", password: password)), as: UTF8.self)
        let request = "POST /sessions HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return await OwnThread {
            let socket = LoopbackSocket(port: port, source: source)
            socket?.send(request)
            // The server runs in this process: in a full parallel run its actor may wait seconds for a turn.
            return socket?.readAnswer(timeout: .seconds(60)).status
        }.value
    }

    @Test func guessingMyPasswordFromElsewhereNeverLocksMeOut() async throws {
        // Given a server whose throttle counts time on a clock that stands still (a sign-in hashes a password, which
        // a loaded machine may take seconds over: its 30 s lockout must not run out mid-test), and an attacker at
        // 127.0.0.2 who guessed my password 7 times
        let fixture = try ServerFixture(
            limits: HTTPLimits(requestTimeout: .seconds(30), idleTimeout: .seconds(30)),
            clock: ManualClock(start: Date()))
        let port = fixture.server.port
        var guesses: [Int?] = []
        for index in 0..<7 { guesses.append(try await signIn("guess\(index)", from: 2, port: port)) }

        // When the attacker tries the right password, and I sign in and send from 127.0.0.1
        let attacker = try await signIn(ChatServer.demoPassword, from: 2, port: port)
        let run = await HonestUser(client: fixture.client).send(5)

        // Then the attacker got 401 five times, then 429 — and so does the right password — while I got in
        #expect(guesses.prefix(5) == [401, 401, 401, 401, 401], "\(guesses)")
        #expect(guesses.dropFirst(5).allSatisfy { $0 == 429 }, "\(guesses)")
        #expect(attacker == 429)
        #expect(run.succeeded == 5, "\(run.failures)")
    }
}
