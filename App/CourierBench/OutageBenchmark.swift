import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier-bench outage`: a server outage of 1 minute to 2 hours with a message queued at its start, under the
/// automatic policy, over the in-process backend whose conditioner refuses every connection meanwhile. For each
/// length, over 20 seeds: the probes the client spent during the outage, and the time from the server answering again
/// to the queued message stored — bounded by the probe's backoff (≤ 30 s apart), not by a retry schedule. Time is the
/// simulated clock's, so the figures are the same on every machine; the run fails if a message is lost or stored
/// twice.
@MainActor
struct OutageBenchmark {
    private let lengths: [(name: String, seconds: Double)] = [
        ("1 min", 60), ("5 min", 300), ("30 min", 1_800), ("2 h", 7_200),
    ]
    private let seeds: [UInt64] = Array(1...20)

    private struct Outcome {
        let probes: Int
        let secondsToStored: Double
    }

    func run() async throws {
        var rows: [[String]] = []
        for length in lengths {
            var outcomes: [Outcome] = []
            for seed in seeds { outcomes.append(try await outage(seconds: length.seconds, seed: seed)) }
            let probes = outcomes.map(\.probes).sorted()
            let waits = outcomes.map(\.secondsToStored).sorted()
            let bound = 30.0 + 1
            rows.append([
                length.name, "\(probes[probes.count / 2])", "\(probes.last ?? 0)",
                String(format: "%.1f s", waits[waits.count / 2]), String(format: "%.1f s", waits.last ?? 0),
                "≤ 31 s", Bench.verdict((waits.last ?? .infinity) <= bound),
            ])
        }
        print("## courier-bench outage\n")
        print(
            Bench.table(
                header: [
                    "outage", "probes (median)", "probes (max)", "back → stored (median)", "back → stored (max)",
                    "floor", "met",
                ], rows: rows))
    }

    /// Queues one message as the server goes down, waits `seconds`, brings it back and runs until it is stored.
    private func outage(seconds: Double, seed: UInt64) async throws -> Outcome {
        let world = try SimulatedClientWorld(seed: seed)
        let (clock, backend, network, client) = (world.clock, world.backend, world.network, world.client)
        defer { client.close() }
        _ = await clock.run(until: { !client.isBusy }, limit: .seconds(60))
        network.isRefusing = true
        let id = try client.outbox.compose(text: "sent as the server went down", in: "c2").id
        await clock.advance(by: .seconds(seconds))
        let probes = client.reachability.probesSent
        network.isRefusing = false
        let back = clock.now
        let stored = await clock.run(until: { backend.message(id) != nil }, limit: .seconds(600))
        guard stored, backend.messages(in: "c2").filter({ $0.id == id }).count == 1 else {
            throw BenchFailure("the message queued during a \(seconds) s outage was not stored exactly once")
        }
        return Outcome(probes: probes, secondsToStored: clock.now.timeIntervalSince(back))
    }
}
