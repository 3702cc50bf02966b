import CourierData
import CourierDomain
import CourierFakes
import CourierHTTP
import CourierServer
import Foundation

/// `courier-bench http`: the HTTP boundary on the loopback. A `courier-server` core runs in this process on
/// 127.0.0.1 (its own sockets, threads and journal) and the URLSession client talks to it, against the same backend
/// called in process. Then Send All of 100 queued messages over the real socket, in ordered batches of 25 against
/// one message per request: round trips counted by the server, wall time measured. The run fails if any message is
/// missing or out of order.
@MainActor
struct HTTPBenchmark {
    private let sends = 400
    private let queued = 100
    private let conversation: ConversationID = "c2"

    func run() async throws {
        let memory = try await inProcess(durable: false)
        let durable = try await inProcess(durable: true)
        let http = try await overHTTP()
        let batched = try await sendAll(batchSize: 25)
        let single = try await sendAll(batchSize: 1)
        let rows = [
            ["in process, journal in memory", rate(memory), Bench.format(memory / Double(sends)), "—"],
            ["in process, journal on disk (synced)", rate(durable), Bench.format(durable / Double(sends)), "1.00×"],
            [
                "HTTP on 127.0.0.1, journal on disk (synced)", rate(http), Bench.format(http / Double(sends)),
                "\(Bench.ratio(http / durable)) slower",
            ],
        ]
        print("## courier-bench http\n")
        print("Sequential sends of \(sends) messages (median of 3 runs each).\n")
        print(Bench.table(header: ["path", "sends per second", "per send", "vs in process on disk"], rows: rows))
        print("\nSend All of \(queued) queued over HTTP on 127.0.0.1.\n")
        print(
            Bench.table(
                header: ["measurement", "batch of 25", "one at a time", "ratio"],
                rows: [
                    [
                        "round trips", "\(batched.roundTrips)", "\(single.roundTrips)",
                        "\(Bench.ratio(Double(single.roundTrips) / Double(max(batched.roundTrips, 1)))) fewer",
                    ],
                    [
                        "wall time", Bench.format(batched.seconds), Bench.format(single.seconds),
                        "\(Bench.ratio(single.seconds / batched.seconds)) faster",
                    ],
                ]))
    }

    private func rate(_ seconds: Double) -> String { String(format: "%.0f", Double(sends) / seconds) }

    // MARK: - Sends per second

    /// Seconds for `sends` sequential sends to the backend called directly.
    private func inProcess(durable: Bool) async throws -> Double {
        var samples: [Double] = []
        for _ in 0..<3 {
            let directory = try Bench.temporaryDirectory("http-direct")
            defer { try? FileManager.default.removeItem(at: directory) }
            let journal: any BackendJournal =
                durable
                ? try RecordLogBackendJournal(path: directory.appendingPathComponent("backend.log").path)
                : InMemoryBackendJournal()
            let backend = try InMemoryChatBackend(
                seed: DemoData.make(seed: ChatServer.demoSeed, now: ManualClock().now), journal: journal)
            let messages = (0..<sends).map { message($0) }
            samples.append(
                try Bench.time {
                    for message in messages { _ = try backend.send(message) }
                })
            (journal as? RecordLogBackendJournal)?.close()
        }
        return Bench.median(samples)
    }

    /// Seconds for `sends` sequential sends through `HTTPChatClient` to a loopback server.
    private func overHTTP() async throws -> Double {
        var samples: [Double] = []
        for _ in 0..<3 {
            let directory = try Bench.temporaryDirectory("http-server")
            let server = try ChatServer(directory: directory)
            let client = HTTPChatClient(baseURL: server.url, user: "me", password: "courier")
            _ = try await client.users(["me"])  // the connection is opened outside the timing
            let messages = (0..<sends).map { message($0) }
            let start = DispatchTime.now().uptimeNanoseconds
            for message in messages { _ = try await client.send(message) }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            guard server.backend.messageCount(in: conversation) == 3 + sends else {
                throw BenchFailure("the server holds \(server.backend.messageCount(in: conversation)) messages")
            }
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        return Bench.median(samples)
    }

    private func message(_ index: Int) -> Message {
        Message(
            id: MessageID(UUID().uuidString.lowercased()), conversationID: conversation, senderID: "me",
            text: "Benchmark message number \(index)",
            timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000 + Double(index)), status: .sending)
    }

    // MARK: - Send All over the socket

    private struct Delivery {
        let seconds: Double
        let roundTrips: Int
    }

    /// Queues 100 messages offline, comes online and runs Send All against a loopback server to the end.
    private func sendAll(batchSize: Int) async throws -> Delivery {
        let directory = try Bench.temporaryDirectory("http-batch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ChatServer(directory: directory)
        defer { server.stop() }
        let client = HTTPChatClient(baseURL: server.url, user: "me", password: "courier")
        let connectivity = ManualConnectivity(online: false)
        let outbox = DurableOutbox(
            store: InMemoryOutboxStore(), repository: client, connectivity: connectivity, clock: SystemClock(),
            ids: .seeded(UInt64(batchSize)), currentUser: "me", policy: .manual,
            limits: .init(batchSize: batchSize))
        var composed: [MessageID] = []
        for index in 1...queued {
            composed.append(try outbox.compose(text: "Queued in the tunnel, number \(index)", in: conversation).id)
        }
        _ = try await client.users(["me"])
        connectivity.set(online: true)
        let requestsBefore = server.backend.requests
        let start = DispatchTime.now().uptimeNanoseconds
        await outbox.sendAll()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let wanted = Set(composed)
        let arrived = server.backend.messages(in: conversation).map(\.id).filter { wanted.contains($0) }
        guard arrived == composed, outbox.pending.isEmpty else {
            throw BenchFailure(
                "batch size \(batchSize): \(arrived.count) of \(queued) arrived"
                    + (arrived == composed ? "" : ", not in compose order") + ", \(outbox.pending.count) still pending")
        }
        return Delivery(seconds: seconds, roundTrips: server.backend.requests - requestsBefore)
    }
}
