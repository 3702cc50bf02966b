import CourierData
import CourierDomain
import CourierMatrix
import Foundation

/// `courier-bench matrix`: Courier over a real Synapse against bare Client-Server requests from the same process, on
/// the same homeserver, in one run (docs/benchmarks.md, "Courier over Matrix"). The homeserver is
/// `COURIER_HOMESERVER` when set, else one this run starts with `Tests/Synapse/synapse` (run from the package root)
/// and stops.
///
/// - **Send**: one message through Courier — durable compose (synced), the `PUT`, the read-back that tells a dropped
///   body from the stored one — against a bare `PUT` plus one `fdatasync`. Floor: ≤ 1.3×, medians of 50.
/// - **Catch-up**: 1,000 messages missed in the background, until the device holds every one — against the bare
///   `/sync` that reports the gap plus the `/messages` pages that fetch it. Floor: ≤ 1.5×.
/// - **Live**: the other person's message until Courier holds it — against a bare long poll's wake-up for the same
///   kind of message. Floor: p50 ≤ 1.5×, 30 samples each.
@MainActor
struct MatrixBenchmark {
    private let sends = 50
    private let missed = 1_000
    private let live = 30

    func run() async throws {
        let root = try Bench.temporaryDirectory("matrix")
        defer { try? FileManager.default.removeItem(at: root) }
        let (base, stop) = try homeserver(root)
        defer { stop() }
        let tag = UUID().uuidString.prefix(6).lowercased()
        let me = try await MatrixRawClient.register("bench-me-\(tag)", at: base)
        let ben = try await MatrixRawClient.register("bench-ben-\(tag)", at: base)
        let room =
            try await me.call(
                "POST", "v3/createRoom", body: ["preset": "private_chat", "is_direct": true, "invite": [ben.userID]])[
                "room_id"] as? String ?? ""
        try await ben.call("POST", "v3/rooms/\(MatrixRawClient.escape(room))/join", body: [:])

        let matrix = MatrixClient(
            homeserver: MatrixHomeserver(baseURL: base), login: me.userID, password: "courier",
            timeout: .seconds(30))
        let user = try await matrix.signedIn().user
        let client = try CourierClient(
            directory: root.appendingPathComponent("me"), currentUser: user, messages: matrix, conversations: matrix,
            users: matrix, connectivity: ManualConnectivity(online: true), clock: SystemClock(), ids: .random,
            policy: .automatic, feed: matrix, syncSettings: SyncSettings(liveWait: .seconds(20)))
        defer { client.close() }
        let watcher = ClientWatcher(client)
        try await watcher.wait(timeout: 20) { client.sync.isLive }

        let send = try await measureSends(client, watcher: watcher, raw: me, room: room, root: root)
        let catchUp = try await measureCatchUp(client, watcher: watcher, raw: me, sender: ben, room: room)
        let arrival = try await measureLive(client, watcher: watcher, raw: me, sender: ben, room: room)
        print(
            Bench.table(
                header: ["measure", "Courier", "bare requests", "ratio", "floor", "met"],
                rows: [
                    [
                        "one send, median of \(sends)", Bench.format(send.courier), Bench.format(send.raw),
                        Bench.ratio(send.courier / send.raw), "≤ 1.30×", Bench.verdict(send.courier / send.raw <= 1.3),
                    ],
                    [
                        "catch-up of \(missed) missed", Bench.format(catchUp.courier), Bench.format(catchUp.raw),
                        Bench.ratio(catchUp.courier / catchUp.raw), "≤ 1.50×",
                        Bench.verdict(catchUp.courier / catchUp.raw <= 1.5),
                    ],
                    [
                        "other's message, p50 of \(live)", Bench.format(arrival.courier), Bench.format(arrival.raw),
                        Bench.ratio(arrival.courier / arrival.raw), "≤ 1.50×",
                        Bench.verdict(arrival.courier / arrival.raw <= 1.5),
                    ],
                ]))
    }

    // MARK: - Measures

    private func measureSends(
        _ client: CourierClient, watcher: ClientWatcher, raw: MatrixRawClient, room: String, root: URL
    ) async throws -> (courier: Double, raw: Double) {
        let file = root.appendingPathComponent("fsync").path
        let descriptor = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchFailure("cannot open \(file)") }
        defer { close(descriptor) }
        var bare: [Double] = []
        var courier: [Double] = []
        let line = [UInt8](repeating: 65, count: 100)
        for index in 0..<(sends + 5) {
            // Interleaved, so both sides meet the same homeserver load.
            var start = DispatchTime.now().uptimeNanoseconds
            try await raw.send("bare \(index)", in: room, txn: "bare-\(UUID())")
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            _ = fdatasync(descriptor)
            if index >= 5 { bare.append(Self.seconds(since: start)) }
            start = DispatchTime.now().uptimeNanoseconds
            let message = try client.outbox.compose(text: "courier \(index)", in: ConversationID(room))
            try await watcher.wait(timeout: 30) { !client.outbox.pending.contains { $0.id == message.id } }
            if index >= 5 { courier.append(Self.seconds(since: start)) }
        }
        return (Bench.median(courier), Bench.median(bare))
    }

    private func measureCatchUp(
        _ client: CourierClient, watcher: ClientWatcher, raw: MatrixRawClient, sender: MatrixRawClient, room: String
    ) async throws -> (courier: Double, raw: Double) {
        client.enterBackground()
        let before = try await raw.sync(since: nil, timeout: 0, limit: 1)["next_batch"] as? String ?? ""
        let tag = UUID().uuidString.prefix(6)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    for index in stride(from: lane, to: missed, by: 8) {
                        try await sender.send("missed \(index)", in: room, txn: "missed-\(tag)-\(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        // The bare catch-up: the /sync that reports the gap, then /messages pages down to the old token.
        var start = DispatchTime.now().uptimeNanoseconds
        let sync = try await raw.sync(since: before, timeout: 0, limit: 10)
        let timeline = ((sync["rooms"] as? [String: Any])?["join"] as? [String: Any])?[room] as? [String: Any]
        var fetched = ((timeline?["timeline"] as? [String: Any])?["events"] as? [Any])?.count ?? 0
        var token = (timeline?["timeline"] as? [String: Any])?["prev_batch"] as? String
        while let from = token {
            let (chunk, end) = try await raw.messages(in: room, from: from, to: before, limit: 1_000)
            fetched += chunk.count
            token = chunk.isEmpty ? nil : end
        }
        let bare = Self.seconds(since: start)
        guard fetched >= missed else { throw BenchFailure("the bare catch-up fetched \(fetched) of \(missed)") }
        // Courier's: from the return to the foreground until the device applied all of them (its cache keeps the
        // newest 200 of a conversation) and caught up.
        let engine = client.syncEngine
        let applied = engine?.appliedEvents ?? 0
        start = DispatchTime.now().uptimeNanoseconds
        client.enterForeground()
        try await watcher.wait(timeout: 120) {
            (engine?.appliedEvents ?? 0) - applied >= missed && engine?.isCatchingUp == false
        }
        return (Self.seconds(since: start), bare)
    }

    private func measureLive(
        _ client: CourierClient, watcher: ClientWatcher, raw: MatrixRawClient, sender: MatrixRawClient, room: String
    ) async throws -> (courier: Double, raw: Double) {
        try await watcher.wait(timeout: 60) { client.sync.isLive }
        var courier: [Double] = []
        var bare: [Double] = []
        var since = try await raw.sync(since: nil, timeout: 0, limit: 1)["next_batch"] as? String
        for index in 0..<live {
            // Courier's device holds a long poll; the other person writes; until the device holds the message.
            let text = "live \(index) \(UUID())"
            var start = DispatchTime.now().uptimeNanoseconds
            try await sender.send(text, in: room, txn: "live-\(UUID())")
            try await watcher.wait(timeout: 30) {
                client.messageCache.messages(in: ConversationID(room)).last?.text == text
            }
            courier.append(Self.seconds(since: start))
            // A bare long poll, held, woken by the same kind of message.
            let asked = since
            let poll = Task { try await raw.sync(since: asked, timeout: 20_000, limit: 10)["next_batch"] as? String }
            try await Task.sleep(for: .milliseconds(200))
            start = DispatchTime.now().uptimeNanoseconds
            try await sender.send("bare \(text)", in: room, txn: "bare-live-\(UUID())")
            since = try await poll.value
            bare.append(Self.seconds(since: start))
        }
        return (Bench.median(courier), Bench.median(bare))
    }

    // MARK: - Parts

    /// The homeserver to measure against, and how to stop it when this run started it.
    private func homeserver(_ root: URL) throws -> (URL, () -> Void) {
        if let given = ProcessInfo.processInfo.environment["COURIER_HOMESERVER"], let url = URL(string: given) {
            return (url, {})
        }
        let script = URL(fileURLWithPath: "Tests/Synapse/synapse")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            throw BenchFailure("set COURIER_HOMESERVER, or run from the package root (Tests/Synapse/synapse)")
        }
        let data = root.appendingPathComponent("synapse").path
        _ = try Self.run(script, ["install"])
        let printed = try Self.run(script, ["start", data, "0", "--parent", "\(getpid())"])
        guard let line = printed.split(separator: "\n").last, let url = URL(string: String(line)) else {
            throw BenchFailure("the homeserver printed no URL: \(printed)")
        }
        return (url, { _ = try? Self.run(script, ["stop", data]) })
    }

    private static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("\(executable.path) \(arguments) failed") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// Waits for a condition on a client's state, looking again each time the outbox or the sync engine says something
/// changed (and every 5 ms besides, for what changes without a word).
@MainActor
final class ClientWatcher {
    private var tokens: [ObservationToken] = []
    private var wake: (() -> Void)?

    init(_ client: CourierClient) {
        tokens.append(client.outbox.observe { [weak self] _ in self?.wake?() })
        tokens.append(client.sync.observe { [weak self] _ in self?.wake?() })
    }

    /// Returns once `condition` holds; throws after `timeout` seconds.
    func wait(timeout: Double, _ condition: @MainActor () -> Bool) async throws {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while !condition() {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { throw BenchFailure("timed out waiting") }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                var resumed = false
                let resume = {
                    guard !resumed else { return }
                    resumed = true
                    continuation.resume()
                }
                wake = resume
                Task { @MainActor in
                    try? await Task.sleep(for: .milliseconds(5))
                    resume()
                }
            }
            wake = nil
        }
    }
}
