import CourierData
import CourierDomain
import CourierHTTP
import Foundation

/// `courier-bench attacks`: every attack of issue 32 against the release `courier-server`, run as a process of its
/// own as a deployment runs it, while `me` sends through the real HTTP client from this process. For each attack, a
/// fresh server: `me` sends `sends` messages unattacked (the baseline, in the same run), then the attack starts and
/// `me` sends `sends` more. The attackers are threads of this process on raw sockets (`Attacker`,
/// `LoopbackSocket`), bounded in count and time. Figures: the honest sends that got through, their p99 under attack
/// against the baseline's, the server's resident set before and after (and its peak), and the attack's requests.
/// Floors (issue 32): every honest send succeeds, p99 ≤ 10× unattacked, the server under 100 MB. An attacker works
/// on a machine of its own: here the attackers' threads run on a core of their own, and the server and the honest
/// user on the others (`Layout`; `COURIER_BENCH_SHARED_CORES=1` shares every core, and then the attackers' own
/// work is part of what the honest user meets).
@MainActor
public struct AttackBenchmark {
    /// Honest sends per run: with 200, the p99 is the third slowest, not the slowest.
    let sends = 200

    /// One attack: its name, the honest user signs in again while it runs, and the traffic it makes.
    struct Attack {
        var name: String
        var signInDuringAttack = false
        var start: (_ port: UInt16, _ tokens: Tokens, _ cores: [Int]?) throws -> Attacker
    }

    /// What one attack cost the honest user.
    struct Outcome {
        var name: String
        var succeeded: Int
        var baselineP99: Double
        var attackedP99: Double
        var attackedP50: Double
        var rssBefore: Int
        var rssAfter: Int
        var rssPeak: Int
        var attackRequests: Int

        var ratio: Double { baselineP99 > 0 ? attackedP99 / baselineP99 : 0 }
    }

    /// Signs the attackers in.
    struct Tokens {
        let port: UInt16

        /// A token of `user` (demo password), from `POST /sessions`.
        func token(for user: UserID) throws -> String {
            let body = try HTTPWire.encode(HTTPWire.SignInBody(userID: user, password: "courier"))
            let answer = AttackBenchmark.exchange(
                AttackBenchmark.request("POST /sessions", body: String(decoding: body, as: UTF8.self)), port: port)
            guard let json = answer.body, let session = try? HTTPWire.decode(HTTPWire.SessionBody.self, from: json)
            else { throw BenchFailure("\(user) could not sign in: \(answer.status.map(String.init) ?? "no answer")") }
            return session.token
        }

        /// The position of `token`'s user's newest event, as `GET /events/end` answers it.
        func feedEnd(_ token: String) throws -> String {
            let answer = AttackBenchmark.exchange(AttackBenchmark.request("GET /events/end", token: token), port: port)
            guard let json = answer.body,
                let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
                let position = object["position"]
            else { throw BenchFailure("GET /events/end answered \(answer.status.map(String.init) ?? "nothing")") }
            return "\(position)"
        }
    }

    static let attacks: [Attack] = [
        Attack(name: "64 idle token-less sockets + 8 threads of token-less requests") { port, _, cores in
            let idle = (0..<64).compactMap { _ in LoopbackSocket(port: port) }
            let request = request("GET /events/end")
            return Attacker(threads: 8, cores: cores) { _ in withExtendedLifetime(idle) { hit(request, port: port) } }
        },
        Attack(name: "one user's long polls on 64 connections") { port, tokens, cores in
            let ana = try tokens.token(for: "ana")
            let poll = request("GET /events?after=\(try tokens.feedEnd(ana))&timeout=5", token: ana)
            return Attacker(threads: 64, maxAttempts: 400, cores: cores) { _ in hit(poll, port: port) }
        },
        Attack(name: "sign-ins with 1 MiB user ids") { port, _, cores in
            let body = "{\"userID\":\"\(String(repeating: "u", count: 1_048_576))\",\"password\":\"x\"}"
            let request = request("POST /sessions", body: body)
            return Attacker(threads: 2, maxAttempts: 400, cores: cores) { _ in hit(request, port: port) }
        },
        Attack(name: "GET /users with 1,000 repeated ids") { port, tokens, cores in
            let ana = try tokens.token(for: "ana")
            let ids = Array(repeating: "ana,me", count: 500).joined(separator: ",")
            let request = request("GET /users?ids=\(ids)", token: ana)
            return Attacker(threads: 4, cores: cores) { _ in hit(request, port: port) }
        },
        Attack(name: "full batches (100 × 4,000 characters) and a 21,646-message batch") { port, tokens, cores in
            let ana = try tokens.token(for: "ana")
            let full = request(
                "POST /conversations/c1/messages:batch", token: ana,
                body: try batch(100, text: String(repeating: "w", count: 4_000)))
            let huge = request(
                "POST /conversations/c1/messages:batch", token: ana, body: try batch(21_646, text: "x"))
            return Attacker(threads: 3, maxAttempts: 400, cores: cores) { index in
                hit(index == 0 ? huge : full, port: port)
            }
        },
        Attack(name: "POST /events/trim by another user") { port, tokens, cores in
            let request = request("POST /events/trim", token: try tokens.token(for: "ana"), body: "")
            return Attacker(threads: 2, cores: cores) { _ in hit(request, port: port) }
        },
        Attack(name: "guessing my password from 127.0.0.2", signInDuringAttack: true) { port, _, cores in
            let request = request("POST /sessions", body: "{\"userID\":\"me\",\"password\":\"guess\"}")
            return Attacker(threads: 2, maxAttempts: 2_000, cores: cores) { _ in hit(request, port: port, source: 2) }
        },
    ]

    /// Where the attackers run: on a core of their own, as on another machine (their work is not the server's),
    /// the server and the honest user on the other; or, with `COURIER_BENCH_SHARED_CORES=1` (or on one core), on
    /// every core beside them.
    struct Layout {
        var attackerCores: [Int]?
        var description: String
    }

    let layout: Layout = {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if cores < 2 || ProcessInfo.processInfo.environment["COURIER_BENCH_SHARED_CORES"] == "1" {
            return Layout(attackerCores: nil, description: "attackers, server and honest user share all \(cores) cores")
        }
        guard CorePinning.pinProcess(to: Array(0..<(cores - 1))) else {
            return Layout(attackerCores: nil, description: "cores could not be pinned: all \(cores) shared")
        }
        return Layout(
            attackerCores: [cores - 1],
            description: "attackers on core \(cores - 1) (as on another machine); server and honest user on the other "
                + "\(cores - 1)")
    }()

    func run() async throws {
        print("## courier-bench attacks\n")
        print("\(layout.description)\n")
        let binaries = try LiveHTTPBenchmark.binaryDirectory()
        var outcomes: [Outcome] = []
        // `COURIER_BENCH_ATTACK=TEXT` runs only the attacks whose name contains TEXT (to profile one).
        let only = ProcessInfo.processInfo.environment["COURIER_BENCH_ATTACK"]
        for attack in Self.attacks where only.map({ attack.name.contains($0) }) ?? true {
            outcomes.append(try await replay(attack, server: binaries.appendingPathComponent("courier-server")))
        }
        let rows = outcomes.map { outcome in
            [
                outcome.name, "\(outcome.succeeded)/\(sends)",
                "\(Bench.format(outcome.attackedP99)) / \(Bench.format(outcome.baselineP99))",
                Bench.ratio(outcome.ratio), Bench.format(outcome.attackedP50),
                "\(outcome.rssBefore / 1_048_576) → \(outcome.rssAfter / 1_048_576) MB (peak \(outcome.rssPeak / 1_048_576))",
                "\(outcome.attackRequests)",
            ]
        }
        print(
            Bench.table(
                header: [
                    "attack", "honest sends", "p99 attacked / unattacked", "ratio (≤ 10×)", "p50 attacked",
                    "server RSS", "attack requests",
                ], rows: rows))
        let turn = try fullBatchTurn(server: binaries.appendingPathComponent("courier-server"))
        print(
            "\nthe largest request alone — a full batch, 100 messages of 4,000 characters (400 KB), decoded, journaled "
                + "and synced — is answered in \(Bench.format(turn)) (median of 5): the longest turn another user's "
                + "request waits for, one per user ahead of it (`FairTurns`)")
        let slow = outcomes.filter { $0.ratio > 10 }.map(\.name)
        let heavy = outcomes.filter { $0.rssPeak >= 100 * 1_048_576 }.map(\.name)
        print(
            "\nfloors: every honest send \(outcomes.allSatisfy { $0.succeeded == sends } ? "met" : "NOT met"); "
                + "p99 ≤ 10× \(slow.isEmpty ? "met" : "NOT met (\(slow.joined(separator: "; ")))"); "
                + "server RSS < 100 MB \(heavy.isEmpty ? "met" : "NOT met (\(heavy.joined(separator: "; ")))")")
        guard outcomes.allSatisfy({ $0.succeeded == sends }) else {
            throw BenchFailure("an honest send failed under attack")
        }
    }

    /// One attack against a fresh server, between an unattacked run and an attacked one.
    private func replay(_ attack: Attack, server binary: URL) async throws -> Outcome {
        let root = try Bench.temporaryDirectory("attacks")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try ChildProcess(binary, ["--data-dir", root.path])
        defer { server.stop() }
        let url = try server.firstLine(prefix: "listening on ")
        guard let base = URL(string: url), let port = base.port.flatMap(UInt16.init(exactly:)) else {
            throw BenchFailure("the server printed no URL: \(url)")
        }
        let client = HTTPChatClient(baseURL: base, user: "me", password: "courier")
        _ = await send(10, through: client)  // signs in, opens the connection, warms up
        let baseline = await send(sends, through: client)
        let before = Self.resident(of: server.pid)
        let attacker = try attack.start(port, Tokens(port: port), layout.attackerCores)
        // Under way before the honest user starts: bounded by looks, not by time.
        for _ in 0..<4_000 where attacker.attemptsMade == 0 { try? await Task.sleep(for: .milliseconds(5)) }
        let honest = attack.signInDuringAttack ? HTTPChatClient(baseURL: base, user: "me", password: "courier") : client
        let attacked = await send(sends, through: honest)
        let after = Self.resident(of: server.pid)
        await attacker.stop()
        FileHandle.standardError.write(Data("attacks: \(attack.name): \(attacked.succeeded)/\(sends)\n".utf8))
        return Outcome(
            name: attack.name, succeeded: attacked.succeeded, baselineP99: Bench.percentile(baseline.latencies, 99),
            attackedP99: Bench.percentile(attacked.latencies, 99), attackedP50: Bench.median(attacked.latencies),
            rssBefore: before.current, rssAfter: after.current, rssPeak: after.peak,
            attackRequests: attacker.attemptsMade)
    }

    /// How long a full batch takes to answer on an idle server, median of 5: the longest a request holds the line.
    private func fullBatchTurn(server binary: URL) throws -> Double {
        let root = try Bench.temporaryDirectory("attacks")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try ChildProcess(binary, ["--data-dir", root.path])
        defer { server.stop() }
        let url = try server.firstLine(prefix: "listening on ")
        guard let port = URL(string: url)?.port.flatMap(UInt16.init(exactly:)) else {
            throw BenchFailure("the server printed no URL: \(url)")
        }
        let ana = try Tokens(port: port).token(for: "ana")
        var times: [Double] = []
        for _ in 0..<5 {
            let request = Self.request(
                "POST /conversations/c1/messages:batch", token: ana,
                body: try Self.batch(100, text: String(repeating: "w", count: 4_000)))
            var answer: (status: Int?, body: Data?) = (nil, nil)
            times.append(Bench.time { answer = Self.exchange(request, port: port) })
            guard answer.status == 200 else {
                throw BenchFailure("a full batch answered \(answer.status.map(String.init) ?? "nothing")")
            }
        }
        return Bench.median(times)
    }

    /// `count` sends into c2, one after another, each timed on the wall clock (what the user waits).
    private func send(_ count: Int, through client: HTTPChatClient) async -> (succeeded: Int, latencies: [Double]) {
        var latencies: [Double] = []
        for index in 0..<count {
            let message = Message(
                id: MessageID(UUID().uuidString.lowercased()), conversationID: "c2", senderID: "me",
                text: "honest \(index)", timestamp: Date(), status: .sending)
            let started = DispatchTime.now().uptimeNanoseconds
            if (try? await client.send(message)) != nil {
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
            }
        }
        return (latencies.count, latencies)
    }

    /// The resident set of process `pid` and its peak, in bytes (0 when unknown).
    private static func resident(of pid: Int32) -> (current: Int, peak: Int) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    // MARK: - Raw requests

    /// The text of a request `head` (`GET /path`) with a bearer `token` and a `body` when given.
    public nonisolated static func request(_ head: String, token: String? = nil, body: String? = nil) -> String {
        var text = "\(head) HTTP/1.1\r\nHost: h\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        return text + "\r\n" + (body ?? "")
    }

    /// One request on a fresh connection from 127.0.0.`source`; its answer is read and dropped.
    public nonisolated static func hit(_ request: String, port: UInt16, source: UInt8 = 1) {
        guard let socket = LoopbackSocket(port: port, source: source) else { return }
        socket.send(request)
        _ = socket.readAnswer(timeout: .seconds(10))
    }

    /// One request on a fresh connection: its status and body.
    nonisolated static func exchange(_ request: String, port: UInt16) -> (status: Int?, body: Data?) {
        guard let socket = LoopbackSocket(port: port) else { return (nil, nil) }
        socket.send(request)
        let answer = socket.readAnswer(timeout: .seconds(10))
        let body = answer.text.range(of: "\r\n\r\n").map { Data(answer.text[$0.upperBound...].utf8) }
        return (answer.status, body)
    }

    /// A batch body of `count` messages of Ana's into c1.
    private static func batch(_ count: Int, text: String) throws -> String {
        let messages = (0..<count).map {
            Message(
                id: MessageID("a\($0)-\(UUID().uuidString)"), conversationID: "c1", senderID: "ana", text: text,
                timestamp: Date().addingTimeInterval(-Double(count - $0)), status: .sending)
        }
        return String(decoding: try HTTPWire.encode(HTTPWire.BatchRequest(messages: messages)), as: UTF8.self)
    }
}
