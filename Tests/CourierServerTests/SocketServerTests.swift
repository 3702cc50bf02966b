import CourierBench
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// Hostile clients against a real `ChatServer` on a loopback port: each is answered with a 4xx or dropped within the
/// limits, the server keeps serving everyone else, and nothing it holds changes.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct SocketServerTests {
    /// Sends `text` on a fresh connection and reads until the server closes it, off the main actor (the server
    /// answers routed requests there). Every exchange here ends with the server closing, so the bound is for a starved
    /// whole-suite run only, never waited out.
    private func exchange(_ text: String, port: UInt16, timeout: Duration = .seconds(60)) async -> (String, Bool) {
        await OwnThread {
            guard let socket = LoopbackSocket(port: port) else { return ("refused", false) }
            socket.send(text)
            return socket.readUntilClosed(timeout: timeout)
        }.value
    }

    @Test func malformedRequestsAreAnswered400AndTheConnectionClosed() async throws {
        // Given a server
        let fixture = try ServerFixture()

        // When clients send garbage, a header without a colon and a chunked body
        let garbage = await exchange("\u{16}\u{03}\u{01}binary noise", port: fixture.server.port)
        let header = await exchange("GET /users?ids=me HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", port: fixture.server.port)
        let chunked = await exchange(
            "POST /conversations/c2/messages:batch HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            port: fixture.server.port)

        // Then each gets its status and is closed, and the server still serves a good request
        #expect(LoopbackSocket.status(of: garbage.0) == 400 && garbage.1)
        #expect(LoopbackSocket.status(of: header.0) == 400 && header.1)
        #expect(LoopbackSocket.status(of: chunked.0) == 501 && chunked.1)
        let users = try await fixture.client.users(["me"])
        #expect(users.map(\.id) == ["me"])
    }

    @Test func oversizedHeadersAndBodiesAreRefusedWithoutReadingThem() async throws {
        // Given a server with small limits
        let fixture = try ServerFixture(
            limits: HTTPLimits(
                maxHeaderBytes: 1_024, maxBodyBytes: 2_048, requestTimeout: .milliseconds(300), idleTimeout: .seconds(2)
            ))

        // When one client sends endless headers and another announces a large body
        let headers = await exchange(
            "GET / HTTP/1.1\r\nHost: h\r\nX-Long: " + String(repeating: "a", count: 4_000), port: fixture.server.port)
        let body = await exchange(
            "PUT /conversations/c2/messages/m1 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(try fixture.token())\r\n"
                + "Content-Length: 10000000\r\n\r\n{", port: fixture.server.port)

        // Then they are refused with 431 and 413, and nothing was stored
        #expect(LoopbackSocket.status(of: headers.0) == 431)
        #expect(LoopbackSocket.status(of: body.0) == 413)
        #expect(fixture.server.backend.messageCount(in: "c2") == 3)
    }

    @Test func aStalledClientGets408AndDoesNotBlockOthers() async throws {
        // Given a server whose requests must arrive within 300 ms, and a client that sends half a request and stalls
        let fixture = try ServerFixture()
        let port = fixture.server.port
        let stalled = OwnThread { () -> (String, Bool) in
            guard let socket = LoopbackSocket(port: port) else { return ("refused", false) }
            socket.send("PUT /conversations/c2/messages/m1 HTTP/1.1\r\nHost: h\r\nContent-Len")
            return socket.readUntilClosed(timeout: .seconds(60))
        }

        // When another client asks meanwhile
        let page = try await fixture.client.messages(in: "c2", before: nil, limit: 10)

        // Then it is served, and the stalled one is answered 408 and dropped
        #expect(page.messages.count == 3)
        let (answer, closed) = await stalled.value
        #expect(LoopbackSocket.status(of: answer) == 408)
        #expect(closed)
    }

    @Test func aSilentConnectionIsClosedAfterTheIdleTimeout() async throws {
        // Given a server that closes idle connections after 300 ms
        let fixture = try ServerFixture(
            limits: HTTPLimits(
                requestTimeout: .milliseconds(300), idleTimeout: .milliseconds(300)))

        // When a client connects and sends nothing
        let (answer, closed) = await exchange("", port: fixture.server.port)

        // Then it is dropped without an answer
        #expect(answer.isEmpty)
        #expect(closed)
    }

    @Test func connectionsBeyondTheCapAreAnswered503() async throws {
        // Given a server serving at most two connections, both held by a signed-in user's long polls (idle
        // anonymous connections would not do: a newcomer may take the place of one, as admission allows)
        let fixture = try ServerFixture(
            limits: HTTPLimits(
                requestTimeout: .milliseconds(300), idleTimeout: .seconds(20), maxConnections: 2))
        let port = fixture.server.port
        let ana = try fixture.token(for: "ana")
        let end = fixture.server.backend.feedEndPosition(for: "ana").number ?? 0
        let poll = "GET /events?after=\(end)&timeout=60 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(ana)\r\n\r\n"
        let held = await OwnThread { () -> [LoopbackSocket] in
            (0..<2).compactMap { _ in
                let socket = LoopbackSocket(port: port)
                socket?.send(poll)
                return socket
            }
        }.value
        #expect(await fixture.wait(until: { fixture.server.heldPolls == 2 }))

        // When a third connects
        let (answer, closed) = await exchange("GET /users?ids=me HTTP/1.1\r\nHost: h\r\n\r\n", port: port)

        // Then it is turned away at once
        #expect(held.count == 2)
        #expect(LoopbackSocket.status(of: answer) == 503)
        #expect(closed)
    }

    @Test func aKeptAliveConnectionServesPipelinedRequestsInOrder() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.token()
        let request = "GET /users?ids=ana HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(token)\r\n\r\n"
        let last =
            "GET /users?ids=ben HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n"
        let (answer, closed) = await exchange(request + last, port: fixture.server.port)
        #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(
            answer.range(of: "\"ana\"")?.lowerBound ?? answer.endIndex < answer.range(of: "\"ben\"")?.lowerBound
                ?? answer.startIndex)
        #expect(closed)
    }
}
