import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// `courier-bench batch`: Send All of 100 queued messages in one conversation on the simulated 3G network
///, in ordered batches of 25 against one message per request. Time is the simulated clock's,
/// so the figures are the same on every machine; the run fails if any message is missing or out of order.
@MainActor
struct BatchBenchmark {
    private let queued = 100
    private let conversation: ConversationID = "c2"

    private struct Delivery {
        let seconds: Double
        let roundTrips: Int
    }

    func run() async throws {
        let batched = try await deliver(batchSize: 25)
        let single = try await deliver(batchSize: 1)
        let fewer = Double(single.roundTrips) / Double(max(batched.roundTrips, 1))
        let faster = single.seconds / batched.seconds
        let rows = [
            [
                "round trips to deliver \(queued)", "\(batched.roundTrips)", "\(single.roundTrips)",
                "\(Bench.ratio(fewer)) fewer", "≥ 10× fewer", Bench.verdict(fewer >= 10),
            ],
            [
                "simulated time to deliver \(queued)", Self.clock(batched.seconds), Self.clock(single.seconds),
                "\(Bench.ratio(faster)) faster", "—", "",
            ],
        ]
        print("## courier-bench batch\n")
        print(
            Bench.table(header: ["measurement", "batch of 25", "one at a time", "ratio", "floor", "met"], rows: rows))
    }

    /// Queues 100 messages offline, comes online on 3G and runs Send All to the end on a manual clock.
    private func deliver(batchSize: Int) async throws -> Delivery {
        let clock = ManualClock()
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 7, now: clock.now), journal: InMemoryBackendJournal())
        let network = NetworkConditioner(
            backend: backend, clock: clock, random: LockedRandom(seed: 42), profile: .threeG, isOnline: false)
        let outbox = DurableOutbox(
            store: InMemoryOutboxStore(), repository: network, connectivity: network, clock: clock, ids: .seeded(9),
            currentUser: backend.signedInUser, policy: .manual, limits: .init(batchSize: batchSize))
        var composed: [MessageID] = []
        for index in 1...queued {
            composed.append(try outbox.compose(text: "Queued in the tunnel, number \(index)", in: conversation).id)
        }
        network.setOnline(true)
        let start = clock.now
        let tripsBefore = network.roundTrips
        var done = false
        // Started through the clock, so that virtual time waits for the pass (an untracked task would leave the
        // clock idle at once, and the run would end before Send All began).
        let sending = clock.task {
            await outbox.sendAll()
            done = true
        }
        guard await clock.run(until: { done }) else {
            throw BenchFailure("Send All (batch size \(batchSize)) did not finish")
        }
        await sending.value
        let wanted = Set(composed)
        let arrived = backend.messages(in: conversation).map(\.id).filter { wanted.contains($0) }
        guard arrived == composed, outbox.pending.isEmpty else {
            throw BenchFailure(
                "batch size \(batchSize): \(arrived.count) of \(queued) arrived"
                    + (arrived == composed ? "" : ", not in compose order") + ", \(outbox.pending.count) still pending")
        }
        return Delivery(seconds: clock.now.timeIntervalSince(start), roundTrips: network.roundTrips - tripsBefore)
    }

    private static func clock(_ seconds: Double) -> String { String(format: "%.1f s simulated", seconds) }
}
