import CourierData
import CourierDomain
import CourierHTTP
import CourierPresentation
import Foundation

/// `courier-bench live-http`: two people over loopback HTTP, as two processes. A `courier-server` runs as a child
/// process, and so does Ben: this same binary in its sender role (`COURIER_BENCH_ROLE=sender`), a `CourierClient`
/// over the HTTP client that composes each line it reads into Ben's chat. This process is Me, a `CourierClient` over
/// the HTTP client with Ben's chat open (`ChatViewModel`, state observed). The figure is the time from writing a
/// line to Ben to Me's chat showing its row — his durable compose, the PUT, the server, the held long poll answering,
/// the apply and the row. The baseline, in the same run: one synced send of Me's own, from compose to `sent` (a
/// durable compose and one HTTP round trip). Floors: p50 ≤ 5× the send's p50, p99 under 200 ms. (Ben's `courier`
/// driver would add its own command loop to every sample; the library on both sides is what is measured.)
@MainActor
struct LiveHTTPBenchmark {
    private let samples = 100
    private let warmUp = 5

    func run() async throws {
        let root = try Bench.temporaryDirectory("live-http")
        defer { try? FileManager.default.removeItem(at: root) }
        let binaries = try Self.binaryDirectory()
        let server = try ChildProcess(
            binaries.appendingPathComponent("courier-server"),
            ["--data-dir", root.appendingPathComponent("server").path])
        defer { server.stop() }
        let url = try server.firstLine(prefix: "listening on ")
        guard let base = URL(string: url) else { throw BenchFailure("the server printed no URL: \(url)") }
        let ben = try ChildProcess(
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(),
            ["live-http", url, root.appendingPathComponent("ben").path], environment: ["COURIER_BENCH_ROLE": "sender"])
        defer { ben.stop() }
        _ = try ben.firstLine(prefix: "ready")

        let remote = HTTPChatClient(baseURL: base, user: "me", password: "courier")
        let client = try CourierClient(
            directory: root.appendingPathComponent("me"), currentUser: "me", messages: remote, conversations: remote,
            users: remote, connectivity: ManualConnectivity(online: true), clock: SystemClock(), ids: .random,
            feed: remote)
        defer { client.close() }
        let banner = ConnectivityBannerViewModel(session: client)
        let chat = ChatViewModel(session: client, conversationID: "c2", title: "Ben", banner: banner)
        chat.start()
        let watcher = RowWatcher(chat)
        try await watcher.wait(for: { $0.messages.count >= 3 }, timeout: 10)
        try await watcher.wait(for: { _ in client.sync.isLive }, timeout: 10)

        var sends: [Double] = []
        for index in 0..<(samples + warmUp) {
            let start = DispatchTime.now().uptimeNanoseconds
            let id = try chat.send(text: "from me \(index)")
            try await watcher.wait(for: { $0.messages.last { $0.id == id }?.status == .sent }, timeout: 10)
            if index >= warmUp { sends.append(Double(watcher.metAt - start) / 1e9) }
        }
        var arrivals: [Double] = []
        for index in 0..<(samples + warmUp) {
            let text = "from ben \(index)"
            let start = DispatchTime.now().uptimeNanoseconds
            ben.write(text)
            try await watcher.wait(for: { $0.messages.last?.text == text }, timeout: 10)
            if index >= warmUp { arrivals.append(Double(watcher.metAt - start) / 1e9) }
        }
        let sendP50 = Bench.median(sends)
        let p50 = Bench.median(arrivals)
        let p99 = Bench.percentile(arrivals, 99)
        print("## courier-bench live-http\n")
        print("\(samples) samples each, after \(warmUp) to warm up; Ben, the server and Me in 3 processes.\n")
        print(
            Bench.table(
                header: ["measurement", "p50", "p99", "floor", "met"],
                rows: [
                    [
                        "Me's synced send (compose → sent)", Bench.format(sendP50),
                        Bench.format(Bench.percentile(sends, 99)),
                        "baseline", "",
                    ],
                    [
                        "Ben's message on Me's open chat", Bench.format(p50), Bench.format(p99),
                        "p50 ≤ 5× send (\(Bench.ratio(p50 / sendP50))), p99 < 200 ms",
                        Bench.verdict(p50 <= 5 * sendP50 && p99 < 0.2),
                    ],
                ]))
    }

    /// Ben's side, in a process of its own: signs in to the server at `arguments[0]` as Ben over the directory
    /// `arguments[1]`, prints `ready`, then composes every line of standard input into `c2`.
    static func sender(_ arguments: [String]) async throws {
        guard arguments.count == 2, let base = URL(string: arguments[0]) else {
            throw BenchFailure("the sender takes the server's URL and a data directory")
        }
        let remote = HTTPChatClient(baseURL: base, user: "ben", password: "courier")
        let client = try CourierClient(
            directory: URL(fileURLWithPath: arguments[1]), currentUser: "ben", messages: remote,
            conversations: remote, users: remote, connectivity: ManualConnectivity(online: true),
            clock: SystemClock(), ids: .random)
        defer { client.close() }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        let lines = AsyncStream<String> { continuation in
            Thread {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
        for await line in lines { try client.outbox.compose(text: line, in: "c2") }
    }

    /// The folder holding this benchmark's binary, where `courier-server` is built beside it.
    static func binaryDirectory() throws -> URL {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let folder = own.deletingLastPathComponent()
        for name in ["courier-server"]
        where !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path) {
            throw BenchFailure("\(name) is not built beside courier-bench (swift build -c release)")
        }
        return folder
    }
}

/// Resumes a waiter when the chat's state meets its condition.
@MainActor
private final class RowWatcher {
    private var token: ObservationToken?
    private var waiting: (condition: (ChatViewModel.State) -> Bool, resume: CheckedContinuation<Void, Never>)?
    private let chat: ChatViewModel

    init(_ chat: ChatViewModel) {
        self.chat = chat
        token = chat.observe { [weak self] state in self?.changed(state) }
    }

    /// When the last awaited condition was first seen to hold (the state's emission, not the waiter's resumption,
    /// which comes after whatever else the same change did).
    private(set) var metAt: UInt64 = 0

    /// Returns once `condition` holds for the chat's state (checked now and on every change, and every 5 ms for
    /// conditions on something else); throws after `timeout` seconds.
    func wait(for condition: @escaping (ChatViewModel.State) -> Bool, timeout: Double) async throws {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        metAt = DispatchTime.now().uptimeNanoseconds
        while !condition(chat.state) {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { throw BenchFailure("timed out waiting") }
            await withCheckedContinuation { continuation in
                waiting = (condition, continuation)
                let poll = Task { @MainActor [weak self] in
                    try? await Task.sleep(nanoseconds: 5_000_000)
                    self?.release()
                }
                _ = poll
            }
        }
    }

    private func changed(_ state: ChatViewModel.State) {
        guard let waiting, waiting.condition(state) else { return }
        metAt = DispatchTime.now().uptimeNanoseconds
        release()
    }

    private func release() {
        let resume = waiting?.resume
        waiting = nil
        resume?.resume()
    }
}
