import CourierBench
import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierServer

/// A request heavier than an app sends — a body past 64 KiB, or one of a token past its request rate — is answered
/// on a thread that has lowered its priority, and its connection is closed after the answer, so the client's next
/// request starts on a fresh thread at the normal priority. An app's usual requests keep their connection.
@MainActor
@Suite(.removesTemporaryDirectories) struct HeavyRequestTests {
    private static func batch(_ count: Int, text: String) throws -> String {
        let messages = (0..<count).map {
            Message(
                id: MessageID("h\($0)-\(UUID().uuidString)"), conversationID: "c2", senderID: "me", text: text,
                timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000 + Double($0)), status: .sending)
        }
        return String(decoding: try HTTPWire.encode(HTTPWire.BatchRequest(messages: messages)), as: UTF8.self)
    }

    /// Sends `request` on a fresh connection: the answer's status, whether it said `Connection: close`, and whether
    /// the server then closed the connection.
    private static func exchange(_ request: String, port: UInt16) async -> (status: Int?, saysClose: Bool, closed: Bool)
    {
        await OwnThread { () -> (Int?, Bool, Bool) in
            guard let socket = LoopbackSocket(port: port) else { return (nil, false, false) }
            socket.send(request)
            // A heavy request's thread runs at a lowered priority: in a test run that keeps every core busy it takes
            // its time, which is the point (a bound, not a latency).
            let answer = socket.readAnswer(timeout: .seconds(120))
            let head = answer.text.components(separatedBy: "\r\n\r\n").first ?? ""
            let saysClose = head.lowercased().contains("connection: close")
            return (answer.status, saysClose, socket.isClosedByServer(within: .milliseconds(500)))
        }.value
    }

    @Test("a batch past 64 KiB is stored and its connection closed after the answer; a small batch keeps it")
    func aHeavyBodyClosesItsConnection() async throws {
        // Given a server and my token
        let fixture = try ServerFixture(limits: HTTPLimits(requestTimeout: .seconds(120), idleTimeout: .seconds(120)))
        let token = try fixture.token()
        let port = fixture.server.port

        // When I send a batch of 20 messages of 4,000 characters (about 80 KB), then one of 2 short ones
        let heavy = AttackBenchmark.request(
            "POST /conversations/c2/messages:batch", token: token,
            body: try Self.batch(20, text: String(repeating: "w", count: 4_000)))
        let light = AttackBenchmark.request(
            "POST /conversations/c2/messages:batch", token: token, body: try Self.batch(2, text: "hi"))
        #expect(heavy.utf8.count > ContentLimits.heavyBodyBytes)
        let heavyAnswer = await Self.exchange(heavy, port: port)
        let lightAnswer = await Self.exchange(light, port: port)

        // Then both are stored; only the heavy one's connection says close and is closed
        let status = String(describing: heavyAnswer.status)
        #expect(heavyAnswer.status == 200 || heavyAnswer.status == 201, "answered \(status)")
        #expect(heavyAnswer.saysClose && heavyAnswer.closed)
        #expect(lightAnswer.status == 200 || lightAnswer.status == 201)
        #expect(!lightAnswer.saysClose && !lightAnswer.closed)
        #expect(fixture.server.backend.messageCount(in: "c2") == 3 + 22)
    }

    @Test("a request past its token's rate is answered 429 and its connection closed; within the rate it is kept")
    func aRefusedRateClosesItsConnection() async throws {
        // Given a server allowing 2 requests per token, never refilled (however slowly a loaded machine runs this)
        let fixture = try ServerFixture(
            limits: HTTPLimits(requestTimeout: .seconds(120), idleTimeout: .seconds(120)),
            contentLimits: ContentLimits(requestBurst: 2, requestsPerSecond: 0))
        let token = try fixture.token()
        let request = AttackBenchmark.request("GET /events/end", token: token)

        // When the token asks three times at once, each on a connection of its own
        let port = fixture.server.port
        let answers = await OwnThread { () -> [(status: Int?, saysClose: Bool, closed: Bool)] in
            // Each opened as its request goes: a socket left waiting without a request is closed as idle.
            var sockets: [LoopbackSocket] = []
            var read: [(Int?, String)] = []
            for _ in 0..<3 {
                guard let socket = LoopbackSocket(port: port) else { break }
                socket.send(request)
                let answer = socket.readAnswer(timeout: .seconds(120))
                sockets.append(socket)
                read.append((answer.status, answer.text.components(separatedBy: "\r\n\r\n").first ?? ""))
            }
            return zip(sockets, read).map { socket, answer in
                (
                    answer.0, answer.1.lowercased().contains("connection: close"),
                    socket.isClosedByServer(within: .milliseconds(500))
                )
            }
        }.value

        // Then the first two are answered on kept connections, the third 429 on a closed one
        #expect(answers.map(\.status) == [200, 200, 429])
        #expect(answers.map(\.closed) == [false, false, true])
        #expect(answers[2].saysClose)
    }

    #if os(Linux)
        @Test("lowering a thread's priority lowers that thread's only")
        func loweringIsPerThread() async {
            // Given a fresh thread that lowers its priority
            let before = ThreadPriority.current
            let lowered = await OwnThread { () -> Int32 in
                ThreadPriority.lower()
                return ThreadPriority.current
            }.value

            // Then it runs at the lowered nice value, and this thread's is unchanged
            #expect(lowered == ThreadPriority.lowered)
            #expect(ThreadPriority.current == before)
        }
    #endif
}
