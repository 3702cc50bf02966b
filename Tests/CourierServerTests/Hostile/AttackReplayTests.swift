import CourierBench
import CourierData
import CourierDomain
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// Every attack of issue 32 replayed on real sockets against a real server, bounded in count and time, while `me`
/// sends 40 messages through the real client: every honest send must get through. The latency and memory each attack
/// costs the honest user are figures, not assertions (a wall-clock bound would fail on a loaded machine, not on a
/// regression): each prints a `figure:` line, recorded in docs/reliability.md, "Hostile clients".
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct AttackReplayTests {
    private static let sends = 40

    /// Runs `attack` against a fresh server between an unattacked run and an attacked one, and checks the floors.
    private func replay(
        _ name: String, signInDuringAttack: Bool = false,
        attack: (ServerFixture, UInt16) throws -> Attacker
    ) async throws {
        let fixture = try ServerFixture(limits: HTTPLimits(requestTimeout: .seconds(2), idleTimeout: .seconds(10)))
        _ = await HonestUser(client: fixture.client).send(5)  // signs in and opens the connection
        let baseline = await HonestUser(client: fixture.client).send(Self.sends)
        let before = HonestUser.residentBytes
        let attacker = try attack(fixture, fixture.server.port)
        // The attack is under way before the honest user starts (bounded: looks are counted, not time).
        #expect(await fixture.wait(until: { attacker.attemptsMade > 0 }, attempts: 4_000), "\(name) never started")
        let client = signInDuringAttack ? fixture.client(as: "me") : fixture.client
        let run = await HonestUser(client: client).send(Self.sends)
        let after = HonestUser.residentBytes
        await attacker.stop()
        print(
            "figure: \(name): \(run.succeeded)/\(Self.sends) sent, p99 \(Self.ms(run.p99)) under attack vs "
                + "\(Self.ms(baseline.p99)) unattacked, RSS \(before / 1_048_576) → \(after / 1_048_576) MB, "
                + "\(attacker.attemptsMade) attack requests")
        #expect(run.succeeded == Self.sends, "\(name): \(run.failures)")
    }

    private static func ms(_ duration: Duration) -> String {
        String(
            format: "%.1f ms",
            Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
    }

    private static func batch(_ count: Int, text: String) throws -> String {
        let messages = (0..<count).map {
            Message(
                id: MessageID("a\($0)-\(UUID().uuidString)"), conversationID: "c1", senderID: "ana", text: text,
                timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000 + Double($0)), status: .sending)
        }
        return String(decoding: try HTTPWire.encode(HTTPWire.BatchRequest(messages: messages)), as: UTF8.self)
    }

    @Test func tokenlessFloodAndIdleSockets() async throws {
        try await replay("64 idle token-less sockets + 8 threads of token-less requests") { _, port in
            let idle = (0..<64).compactMap { _ in LoopbackSocket(port: port) }
            let request = AttackBenchmark.request("GET /events/end")
            return Attacker(threads: 8) { index in
                withExtendedLifetime(idle) { AttackBenchmark.hit(request, port: port) }
                _ = index
            }
        }
    }

    @Test func oneUserHoldingEveryLongPoll() async throws {
        try await replay("one user's long polls on 64 connections") { fixture, port in
            let ana = try fixture.token(for: "ana")
            let end = fixture.server.backend.feedEndPosition(for: "ana").number ?? 0
            let poll = AttackBenchmark.request("GET /events?after=\(end)&timeout=5", token: ana)
            return Attacker(threads: 64, maxAttempts: 200) { _ in AttackBenchmark.hit(poll, port: port) }
        }
    }

    @Test func signInsWithHugeUserIds() async throws {
        try await replay("sign-ins with 1 MiB user ids") { _, port in
            let body = "{\"userID\":\"\(String(repeating: "u", count: 1_048_576))\",\"password\":\"x\"}"
            let request = AttackBenchmark.request("POST /sessions", body: body)
            return Attacker(threads: 2, maxAttempts: 100) { _ in AttackBenchmark.hit(request, port: port) }
        }
    }

    @Test func amplifiedUserLists() async throws {
        try await replay("GET /users with 1,000 repeated ids") { fixture, port in
            let ana = try fixture.token(for: "ana")
            let ids = Array(repeating: "ana,me", count: 500).joined(separator: ",")
            let request = AttackBenchmark.request("GET /users?ids=\(ids)", token: ana)
            return Attacker(threads: 4) { _ in AttackBenchmark.hit(request, port: port) }
        }
    }

    @Test func hugeBatchesAndFullBatches() async throws {
        try await replay("full batches (100 × 4,000 characters) and a 21,646-message batch") { fixture, port in
            let ana = try fixture.token(for: "ana")
            let full = try Self.batch(100, text: String(repeating: "w", count: 4_000))
            let huge = try Self.batch(21_646, text: "x")
            return Attacker(threads: 3, maxAttempts: 100) { index in
                let body = index == 0 ? huge : full
                AttackBenchmark.hit(
                    AttackBenchmark.request("POST /conversations/c1/messages:batch", token: ana, body: body), port: port
                )
            }
        }
    }

    @Test func trimmingEveryonesFeed() async throws {
        try await replay("POST /events/trim by another user") { fixture, port in
            let ana = try fixture.token(for: "ana")
            let request = AttackBenchmark.request("POST /events/trim", token: ana, body: "")
            return Attacker(threads: 2) { _ in AttackBenchmark.hit(request, port: port) }
        }
    }

    @Test func guessingMyPasswordWhileISignIn() async throws {
        try await replay("guessing my password from 127.0.0.2", signInDuringAttack: true) { _, port in
            let body = "{\"userID\":\"me\",\"password\":\"guess\"}"
            let request = AttackBenchmark.request("POST /sessions", body: body)
            return Attacker(threads: 2, maxAttempts: 500) { _ in AttackBenchmark.hit(request, port: port, source: 2) }
        }
    }
}
