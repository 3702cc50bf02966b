import CourierBench
import CourierServer
import CourierTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A heavy request — a long request line or a large body — has its pure work (decoding and checking it, encoding its
/// answer) done on a thread of lower CPU priority, so that on a busy machine it takes what everyone else's ordinary
/// requests leave; ordinary requests keep their connection's priority, and the connection stays open.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct HeavyRequestPriorityTests {
    /// What the server saw of each path: whether it was marked heavy, and the nice value its answer was encoded at.
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var heavy: [String: Bool] = [:]
        private var nice: [String: Int32] = [:]

        func request(_ path: String, heavy isHeavy: Bool) { lock.withLock { heavy[path] = isHeavy } }

        func encoded(_ path: String) {
            #if canImport(Glibc)
                let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                lock.withLock { nice[path] = value }
            #endif
        }

        var marks: [String: Bool] { lock.withLock { heavy } }
        var niceValues: [String: Int32] { lock.withLock { nice } }
    }

    /// An answer body that notes the nice value of the thread encoding it.
    private struct NotingBody: Encodable, Sendable {
        let path: String
        let seen: Seen

        func encode(to encoder: any Encoder) throws {
            seen.encoded(path)
            var container = encoder.singleValueContainer()
            try container.encode(path)
        }
    }

    #if canImport(Glibc)
        @Test func heavyRequestsAreMarkedAndTheirAnswersEncodedAtALowerPriorityOnAConnectionThatStaysOpen()
            async throws
        {
            // Given a server whose answers note the nice value they are encoded at, and one kept-alive connection
            // carrying an ordinary request, one with a 3 KB query, one with a 70 KB body, and a last ordinary one
            let seen = Seen()
            let server = try SocketServer(port: 0) { request in
                seen.request(request.path, heavy: request.isHeavy)
                return HTTPResponse(status: 200, encoding: NotingBody(path: request.path, seen: seen))
            }
            server.start()
            defer { server.stop() }
            let light = "GET /light HTTP/1.1\r\nHost: h\r\n\r\n"
            let longQuery =
                "GET /query?ids=" + String(repeating: "ana,", count: 750) + "me HTTP/1.1\r\nHost: h\r\n\r\n"
            let body = String(repeating: "x", count: 70_000)
            let largeBody = "POST /body HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
            let last = "GET /last HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            let port = server.port
            let (answer, closed) = await OwnThread { () -> (String, Bool) in
                guard let socket = LoopbackSocket(port: port) else { return ("refused", false) }
                socket.send(light + longQuery + largeBody + last)
                return socket.readUntilClosed(timeout: .seconds(60))
            }.value

            // Then all four are answered on the one connection; the two heavy ones are marked so and their answers
            // encoded 10 nice steps lower (at most 19); the ordinary ones at the connection's own priority
            #expect(answer.components(separatedBy: "HTTP/1.1 200").count == 5)
            #expect(closed)
            #expect(seen.marks == ["/light": false, "/query": true, "/body": true, "/last": false])
            let nice = seen.niceValues
            let ordinary = try #require(nice["/light"])
            #expect(ordinary < 19, "the test process runs at nice 19: a lower priority cannot be seen")
            #expect(nice["/last"] == ordinary)
            #expect(nice["/query"] == min(19, ordinary + 10))
            #expect(nice["/body"] == min(19, ordinary + 10))
        }

        @Test func aLongIdListIsReadAtALowerPriorityAndAnsweredAsAnyOther() async throws {
            // Given a chat server, and my token
            let fixture = try ServerFixture()
            let token = try fixture.token()
            let port = fixture.server.port
            /// The status and the users answered, as (id, display name) pairs in order.
            func get(_ ids: String) async -> (Int?, [[String]]) {
                let (status, text) = await OwnThread { () -> (Int?, String) in
                    let socket = LoopbackSocket(port: port)
                    socket?.send("GET /users?ids=\(ids) HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \(token)\r\n\r\n")
                    let answer = socket?.readAnswer(timeout: .seconds(60))
                    return (answer?.status, answer?.text ?? "")
                }.value
                let body = text.range(of: "\r\n\r\n").map { Data(text[$0.upperBound...].utf8) } ?? Data()
                let users = (try? JSONSerialization.jsonObject(with: body)) as? [[String: String]] ?? []
                return (status, users.map { [$0["id"] ?? "", $0["displayName"] ?? ""] })
            }

            // When I ask for two users, then for the same two repeated 500 times (1,000 ids, 3.5 KB of query)
            let short = await get("ana,me")
            let shortScreens = fixture.server.heavyRequestsScreenedAtLowPriority
            let long = await get(Array(repeating: "ana,me", count: 500).joined(separator: ","))

            // Then both are answered with the same two users; only the long one was read at a lower priority
            #expect(short.0 == 200 && long.0 == 200)
            #expect(short.1 == [["ana", "Ana"], ["me", "Me"]])
            #expect(long.1 == short.1)
            #expect(shortScreens == 0)
            #expect(fixture.server.heavyRequestsScreenedAtLowPriority == 1)
        }
    #endif
}
