import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// `courier-bench lie-fi`: a backend that accepts and answers nothing (`NetworkConditioner.isHanging`, what a frozen
/// server or a captive portal does), on the simulated network and its virtual clock (docs/benchmarks.md):
/// opening a chat the device holds with the backend frozen vs up (wall time from `start()` to its rows, in this
/// process, and clock time until its rows show); the clock time from a send into the frozen backend to the client
/// calling it unreachable; and from the thaw to the queued message stored.
@MainActor
struct LieFiBenchmark {
    private let opens = 200
    private let seeds: [UInt64] = Array(1...20)
    private let freezes: [(name: String, seconds: Double)] = [("10 s", 10), ("1 min", 60), ("30 min", 1_800)]

    func run() async throws {
        print("## courier-bench lie-fi\n")
        try await openCachedChat()
        try await freezeAndThaw()
    }

    // MARK: - Opening a held chat

    private func openCachedChat() async throws {
        let world = try World(seed: 1)
        defer { world.client.close() }
        // The device holds c2: opened once with the backend up.
        _ = try await world.open(until: { !$0.state.isLoading })
        var rows: [[String]] = []
        var medians: [Double] = []
        for frozen in [false, true] {
            world.network.isHanging = frozen
            var walls: [Double] = []
            var clockMillis: [Double] = []
            for _ in 0..<opens {
                let start = world.clock.now
                let wall = try await world.open(until: { !$0.state.messages.isEmpty })
                walls.append(wall)
                clockMillis.append(world.clock.now.timeIntervalSince(start) * 1_000)
                // Let the page the open asked for end (answered, or given up at the bound), untimed.
                _ = await world.clock.run(until: { !world.client.isBusy }, limit: .seconds(60))
            }
            let median = Bench.median(walls)
            medians.append(median)
            rows.append([
                frozen ? "frozen" : "up", Bench.format(median), Bench.format(Bench.percentile(walls, 99)),
                String(format: "%.0f ms", Bench.percentile(clockMillis, 100)),
            ])
        }
        world.network.isHanging = false
        let ratio = medians[1] / max(medians[0], 1e-9)
        print(
            Bench.table(
                header: ["backend", "open → rows, wall (median)", "wall (p99)", "clock time to rows (max)"],
                rows: rows))
        print(
            "\nFrozen vs up: \(Bench.ratio(ratio)) (floor ≤ 2×: \(Bench.verdict(ratio <= 2))); \(opens) opens "
                + "each of Ben's chat (c2), held on the device.\n")
    }

    // MARK: - Freezing and thawing

    private func freezeAndThaw() async throws {
        var rows: [[String]] = []
        for freeze in freezes {
            var toUnreachable: [Double] = []
            var toStored: [Double] = []
            for seed in seeds {
                let world = try World(seed: seed)
                defer { world.client.close() }
                _ = await world.clock.run(until: { !world.client.isBusy }, limit: .seconds(60))
                world.network.isHanging = true
                let frozenAt = world.clock.now
                let id = try world.client.outbox.compose(text: "sent into the silence", in: "c2").id
                let reachability = world.client.reachability
                guard await world.clock.run(until: { !reachability.isReachable }, limit: .seconds(60)) else {
                    throw BenchFailure("a frozen backend was never called unreachable (seed \(seed))")
                }
                toUnreachable.append(world.clock.now.timeIntervalSince(frozenAt))
                await world.clock.advance(
                    by: .seconds(max(0, freeze.seconds - world.clock.now.timeIntervalSince(frozenAt))))
                world.network.isHanging = false
                let thawedAt = world.clock.now
                let stored = await world.clock.run(until: { world.backend.message(id) != nil }, limit: .seconds(600))
                guard stored, world.backend.messages(in: "c2").filter({ $0.id == id }).count == 1 else {
                    throw BenchFailure("the message sent into a \(freeze.name) freeze was not stored exactly once")
                }
                toStored.append(world.clock.now.timeIntervalSince(thawedAt))
            }
            let worstUnreachable = toUnreachable.max() ?? .infinity
            let worstStored = toStored.max() ?? .infinity
            rows.append([
                freeze.name, String(format: "%.1f s", worstUnreachable),
                Bench.verdict(worstUnreachable <= HTTPChatClient.unansweredBound.timeInterval + 0.5),
                String(format: "%.1f s", Bench.median(toStored)), String(format: "%.1f s", worstStored),
                Bench.verdict(worstStored <= 30 + HTTPChatClient.unansweredBound.timeInterval + 1),
            ])
        }
        print(
            Bench.table(
                header: [
                    "frozen for", "send → unreachable (max)", "≤ bound (5 s)", "thaw → stored (median)",
                    "thaw → stored (max)", "≤ probe (30 s) + bound",
                ], rows: rows))
        print("\n\(seeds.count) seeds each, virtual clock; the message is sent as the backend freezes.")
    }

    /// A client of the demo world over the simulated network, on its own clock and simulated disk.
    @MainActor
    final class World {
        let clock = ManualClock()
        let backend: InMemoryChatBackend
        let network: NetworkConditioner
        let client: CourierClient
        let banner: ConnectivityBannerViewModel

        init(seed: UInt64) throws {
            backend = try InMemoryChatBackend(
                seed: DemoData.make(seed: 7, now: clock.now), journal: InMemoryBackendJournal())
            network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: seed))
            client = try CourierClient(
                directory: URL(fileURLWithPath: "/bench"), currentUser: backend.signedInUser, messages: network,
                conversations: network, users: network, connectivity: network, clock: clock, ids: .seeded(seed),
                policy: .automatic, feed: network, probeRandom: LockedRandom(seed: seed),
                fileSystem: SimulatedFileSystem())
            banner = ConnectivityBannerViewModel(session: client)
        }

        /// Opens Ben's chat and runs the clock until `shown` holds; returns the wall seconds from `start()` to then.
        func open(until shown: @escaping @MainActor (ChatViewModel) -> Bool) async throws -> Double {
            let chat = ChatViewModel(session: client, conversationID: "c2", title: "Ben", banner: banner)
            let start = DispatchTime.now().uptimeNanoseconds
            chat.start()
            if !shown(chat) {
                guard await clock.run(until: { shown(chat) }, limit: .seconds(120)) else {
                    throw BenchFailure("Ben's chat never showed")
                }
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
    }
}
