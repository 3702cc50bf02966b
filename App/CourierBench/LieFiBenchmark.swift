import CourierData
import CourierDomain
import CourierFakes
import CourierHTTP
import CourierPresentation
import Foundation

/// `courier-bench lie-fi`: a backend that accepts and answers nothing (`NetworkConditioner.isHanging`, what a frozen
/// server or a captive portal does), on the simulated network and its virtual clock (docs/benchmarks.md):
/// opening a chat, and the conversation list, the device holds with the backend frozen vs up (wall time from
/// `start()` or `load()` to its rows, in this process, and clock time until its rows show); the clock time from a send into the frozen backend to the client
/// calling it unreachable; and from the thaw to the queued message stored.
@MainActor
struct LieFiBenchmark {
    private let opens = 200
    private let seeds: [UInt64] = Array(1...20)
    private let freezes: [(name: String, seconds: Double)] = [("10 s", 10), ("1 min", 60), ("30 min", 1_800)]

    func run() async throws {
        print("## courier-bench lie-fi\n")
        try await openHeld(
            "Ben's chat (c2)", what: "open → rows",
            { world in try await world.open(until: { !$0.state.isLoading }) },
            { world in try await world.open(until: { !$0.state.messages.isEmpty }) })
        try await openHeld(
            "the conversation list (its first page)", what: "load → rows",
            { world in try await world.openList(until: { !$0.state.isLoading }) },
            { world in try await world.openList(until: { !$0.state.items.isEmpty }) })
        try await freezeAndThaw()
    }

    // MARK: - Opening what the device holds

    /// Opens `screen` once with the backend up (`fill`: the device then holds it), then `opens` times each with the
    /// backend up and frozen (`open`, until its rows show).
    private func openHeld(
        _ screen: String, what: String, _ fill: (SimulatedClientWorld) async throws -> Double,
        _ open: (SimulatedClientWorld) async throws -> Double
    ) async throws {
        let world = try SimulatedClientWorld(seed: 1)
        defer { world.client.close() }
        _ = try await fill(world)
        var rows: [[String]] = []
        var medians: [Double] = []
        for frozen in [false, true] {
            world.network.isHanging = frozen
            var walls: [Double] = []
            var clockMillis: [Double] = []
            for _ in 0..<opens {
                let start = world.clock.now
                let wall = try await open(world)
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
                header: ["backend", "\(what), wall (median)", "wall (p99)", "clock time to rows (max)"], rows: rows))
        print(
            "\nFrozen vs up: \(Bench.ratio(ratio)) (floor ≤ 2×: \(Bench.verdict(ratio <= 2))); \(opens) opens "
                + "each of \(screen), held on the device.\n")
    }

    // MARK: - Freezing and thawing

    private func freezeAndThaw() async throws {
        var rows: [[String]] = []
        for freeze in freezes {
            var toUnreachable: [Double] = []
            var toStored: [Double] = []
            for seed in seeds {
                let world = try SimulatedClientWorld(seed: seed)
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
}
