import CourierBench
import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// An attacker at a real `courier-server` socket: no token, a forged one, an expired one, a revoked one, another
/// user's on every endpoint, a sender that is not the signed-in user (alone and inside a batch), and a password
/// guessed over and over. Each is refused with its status and nothing the server holds changes.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct HostileClientTests {
    /// A server on a manual clock (tokens live a minute), its directory and its address.
    @MainActor private final class Target {
        let directory: TemporaryDirectory
        let clock = ManualClock()
        let server: ChatServer

        init() throws {
            directory = try TemporaryDirectory(prefix: "courier-hostile")
            server = try ChatServer(
                directory: directory.url, limits: HTTPLimits(requestTimeout: .seconds(20)), tokenLifetime: .seconds(60),
                clock: clock)
        }

        func token(_ user: UserID) throws -> String {
            guard case .granted(let token, _) = try server.sessions.signIn(user, password: ChatServer.demoPassword)
            else { throw DeliveryError.unauthorized }
            return token
        }

        /// What the server holds that an attack could change: every conversation's message count, the markers of
        /// c2 and the display names.
        var holdings: [String] {
            let backend = server.backend
            return backend.conversationIDs.map { "\($0.rawValue)=\(backend.messageCount(in: $0))" }
                + ["me", "ben", "ana"].map {
                    "read.\($0)=\(backend.marker(.read, of: UserID($0), in: "c2")?.rawValue ?? "-")"
                }
                + ["me", "ben", "ana"].map { "name.\($0)=\(backend.user(UserID($0))?.displayName ?? "-")" }
                + ((try? backend.presence(["me"], as: "me")) ?? []).map { "presence.me=\($0)" }
                + ["hidden.c2=\(backend.isHidden("c2", for: "me"))"]
        }

        func stop() {
            server.stop()
            directory.remove()
        }
    }

    /// One raw request on a fresh connection with `bearer` (none when nil): the status and body of the answer.
    private func send(
        _ method: String, _ path: String, bearer: String?, body: Data = Data(), to target: Target
    ) async -> (status: Int, body: String, head: String) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let bearer { head += "Authorization: Bearer \(bearer)\r\n" }
        if method == "PUT" || method == "POST" {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        let bytes = Array((head + "\r\n").utf8) + Array(body)
        let port = target.server.port
        let (text, _) = await OwnThread {
            guard let socket = LoopbackSocket(port: port) else { return ("refused", false) }
            socket.send(bytes)
            // The server closes after its answer: the bound is for a starved machine only, never waited out.
            return socket.readUntilClosed(timeout: .seconds(60))
        }.value
        let parts = text.components(separatedBy: "\r\n\r\n")
        return (LoopbackSocket.status(of: text) ?? 0, parts.dropFirst().joined(separator: "\r\n\r\n"), parts[0])
    }

    private static func message(_ text: String, from sender: UserID = "me", in conversation: ConversationID = "c2")
        -> Message
    {
        Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: conversation, senderID: sender, text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending)
    }

    /// Every route a signed-in user may call, each aimed at `me`'s things (c2 with Ben, `me`'s list and name).
    private static func routes() throws -> [(method: String, path: String, body: Data)] {
        let message = message("forged")
        let receipt = HTTPWire.ReceiptBody(
            kind: .read, messageID: "c2-m0003", timestamp: Date(timeIntervalSinceReferenceDate: 0))
        return [
            ("PUT", "/conversations/c2/messages/\(message.id.rawValue)", try HTTPWire.encode(message)),
            (
                "POST", "/conversations/c2/messages:batch",
                try HTTPWire.encode(HTTPWire.BatchRequest(messages: [message]))
            ),
            ("GET", "/conversations/c2/messages?limit=5", Data()),
            ("GET", "/conversations/c2", Data()),
            ("GET", "/conversations/c2/reads", Data()),
            ("POST", "/conversations/c2/receipts", try HTTPWire.encode(receipt)),
            ("GET", "/users/me/conversations", Data()),
            ("GET", "/users?ids=me,ben", Data()),
            ("GET", "/presence?ids=me,ben", Data()),
            ("PUT", "/users/me/display-name", try HTTPWire.encode(HTTPWire.DisplayNameBody(name: "Eve"))),
            ("PUT", "/users/me/presence", try HTTPWire.encode(HTTPWire.PresenceBody(isOnline: false))),
            ("POST", "/conversations/c2/hide", Data()),
            ("GET", "/events?after=0", Data()),
            ("GET", "/events/end", Data()),
            ("GET", "/snapshot?chats=c2", Data()),
            ("DELETE", "/sessions/current", Data()),
        ]
    }

    @Test func withoutALiveTokenEveryRouteIs401AndNothingChanges() async throws {
        // Given a server, a token that ran out and one that was revoked
        let target = try Target()
        defer { target.stop() }
        let expired = try target.token("me")
        await target.clock.advance(by: .seconds(61))
        let revoked = try target.token("me")
        #expect(await send("DELETE", "/sessions/current", bearer: revoked, to: target).status == 204)
        let before = target.holdings
        let forged = String(repeating: "ab", count: 32)

        // When each route is called with no token, a forged one, a user id, the expired and the revoked one
        for route in try Self.routes() {
            for bearer in [nil, forged, "me", expired, revoked] {
                let answer = await send(route.method, route.path, bearer: bearer, body: route.body, to: target)

                // Then each is 401, and says so in the contract's error body
                #expect(answer.status == 401, "\(route.method) \(route.path) with \(bearer ?? "no token")")
                #expect(answer.body.contains("\"unauthorized\""))
            }
        }
        #expect(target.holdings == before)
    }

    @Test func anotherUsersTokenIsRefusedOnEverythingOfMineAndMyConversationIsAsIfItDidNotExist() async throws {
        // Given Ana, who is not in c2 and is not me
        let target = try Target()
        defer { target.stop() }
        let ana = try target.token("ana")
        let before = target.holdings

        // When she calls every route aimed at c2, my list or my name (her own feed and sign-out excepted)
        for route in try Self.routes() where !route.path.hasPrefix("/events") && !route.path.hasPrefix("/snapshot") {
            guard route.path != "/sessions/current" else { continue }
            let answer = await send(route.method, route.path, bearer: ana, body: route.body, to: target)

            // Then each is refused and nothing changed: c2 is 404 exactly as a conversation nobody has (she learns
            // nothing of which ids exist); my list, my name and messages that name me as their sender are 403
            let writesMyMessages = route.path.contains("/messages/") || route.path.hasSuffix("messages:batch")
            if route.path.hasPrefix("/conversations/c2"), !writesMyMessages {
                let unknown = route.path.replacingOccurrences(of: "/conversations/c2", with: "/conversations/c404")
                let absent = await send(route.method, unknown, bearer: ana, body: route.body, to: target)
                #expect(answer.status == 404, "\(route.method) \(route.path)")
                #expect(answer.body == absent.body, "\(route.method) \(route.path) tells c2 from an unknown id")
            } else {
                #expect(answer.status == 403, "\(route.method) \(route.path)")
            }
        }
        #expect(target.holdings == before)

        // And her snapshot leaves c2 out, her feed holds nothing of it: the feed is the bearer's alone
        let snapshot = await send("GET", "/snapshot?chats=c2", bearer: ana, to: target)
        let body = try HTTPWire.decode(HTTPWire.SnapshotBody.self, from: Data(snapshot.body.utf8))
        #expect(snapshot.status == 200 && body.chats.isEmpty)
        #expect(!body.conversations.conversations.contains { $0.id == "c2" })
    }

    @Test func aSenderThatIsNotTheSignedInUserIsRefusedAloneAndInsideABatch() async throws {
        // Given me, signed in, and a message that claims to be Ben's
        let target = try Target()
        defer { target.stop() }
        let token = try target.token("me")
        let forged = Self.message("I owe you 100", from: "ben")
        let before = target.holdings

        // When I send it alone, then last in a batch behind a good message of mine
        let alone = await send(
            "PUT", "/conversations/c2/messages/\(forged.id.rawValue)", bearer: token, body: try HTTPWire.encode(forged),
            to: target)
        let batch = HTTPWire.BatchRequest(messages: [Self.message("fine"), forged])
        let inBatch = await send(
            "POST", "/conversations/c2/messages:batch", bearer: token, body: try HTTPWire.encode(batch), to: target)

        // Then both are 403, and the batch stored nothing — not even the good message before it
        #expect(alone.status == 403 && alone.body.contains("\"forbidden\""))
        #expect(inBatch.status == 403)
        #expect(target.holdings == before)
        #expect(target.server.backend.message(forged.id) == nil)
    }

    @Test func guessingAPasswordIsThrottledThenTheRightOneWorksAfterTheLockout() async throws {
        // Given a server
        let target = try Target()
        defer { target.stop() }
        func signIn(_ password: String, as user: String = "me") async throws
            -> (status: Int, body: String, head: String)
        {
            let body = try HTTPWire.encode(HTTPWire.SignInBody(userID: UserID(user), password: password))
            return await send("POST", "/sessions", bearer: nil, body: body, to: target)
        }

        // When five wrong passwords are tried, then the right one
        var statuses: [Int] = []
        for guess in ["a", "b", "c", "d", "e"] { statuses.append(try await signIn(guess).status) }
        let locked = try await signIn(ChatServer.demoPassword)

        // Then each guess was 401, and even the right password is 429 until the 30 s lockout passes
        #expect(statuses == Array(repeating: 401, count: 5))
        #expect(locked.status == 429 && locked.body.contains("\"rateLimited\""))
        #expect(locked.head.lowercased().contains("retry-after: 30"))
        await target.clock.advance(by: .seconds(30))
        let granted = try await signIn(ChatServer.demoPassword)
        #expect(granted.status == 201)
        let session = try HTTPWire.decode(HTTPWire.SessionBody.self, from: Data(granted.body.utf8))
        #expect(session.token.count == 64 && session.token.allSatisfy(\.isHexDigit))

        // And an unknown user is answered like a wrong password, throttled the same way
        var unknown: [Int] = []
        for _ in 0..<6 { unknown.append(try await signIn("x", as: "nobody").status) }
        #expect(unknown == Array(repeating: 401, count: 5) + [429])
    }
}
