import CourierApp
import CourierData
import CourierDomain
import Foundation
import Testing

/// The deterministic simulation inside `swift test`: a few hundred short seeds, some long ones for the feed's
/// convergence, and the proof that a seed replays.
/// Long runs belong to `swift run -c release courier-sim --seeds 10000` (docs/reliability.md).
@Suite("Simulation")
@MainActor
struct SimTests {
    @Test("240 seeds of 10 random steps each keep every invariant of docs/design.md §2")
    func seedsKeepTheInvariants() async {
        // Given a short session per seed (sends, flicker, edits, restarts, crashes mid-work, clock jumps)
        var lines: [String] = []
        // When the seeds run
        let status = await SimulationCommand.run(arguments: ["--seeds", "240", "--steps", "10"]) { lines.append($0) }
        // Then no invariant was violated, and the program says so
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        #expect(lines.first == "240 seeds, 0 invariant violations")
    }

    @Test("others act, and at every quiet point what the app shows converges with a fresh fetch from the backend")
    func longSeedsConverge() async {
        // Given seeds long enough for the other participants and the user's other device to send and read, for the
        // app to go to the background and back, open chats and load its list, and for the feed to be trimmed
        var totals = SimulationOutcome(seed: 0)
        var failures: [String] = []
        // When they run
        for seed in Self.longSeeds {
            let outcome = await Simulation.run(seed: seed, steps: Self.longSteps)
            totals.steps += outcome.steps
            totals.peerActions += outcome.peerActions
            totals.convergenceChecks += outcome.convergenceChecks
            totals.startOvers += outcome.startOvers
            if let first = outcome.violations.first { failures.append("seed \(seed): \(first)") }
        }
        // Then every invariant held, the convergence check among them, and it was checked many times
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(totals.steps == Self.longSeeds.count * Self.longSteps)
        #expect(totals.convergenceChecks >= 40, "\(totals.convergenceChecks) convergence checks")
        #expect(totals.peerActions >= 100, "\(totals.peerActions) peer actions")
        #expect(totals.startOvers >= 1, "\(totals.startOvers) start-overs")
    }

    /// The seeds and steps of the long run: 1,200 steps in all, among them a few trims of the feed that the app
    /// meets behind (a start-over).
    private static let longSeeds: [UInt64] = Array(40_000..<40_020)
    private static let longSteps = 60

    @Test("a seed replays identically: the same trace hash and figures twice over")
    func seedsReplayIdentically() async {
        for seed: UInt64 in [3, 41, 977] {
            // Given one seed, when it runs twice
            let first = await Simulation.run(seed: seed, steps: 40)
            let second = await Simulation.run(seed: seed, steps: 40)
            // Then both runs did exactly the same things
            #expect(first == second, "seed \(seed)")
            #expect(first.steps == 40)
        }
        // And different seeds do different things
        let other = await Simulation.run(seed: 4, steps: 40)
        #expect(other.traceHash != (await Simulation.run(seed: 3, steps: 40)).traceHash)
    }

    @Test("--verbose prints one trace hash per seed, equal across runs")
    func verboseTraceHashes() async {
        var first: [String] = []
        var second: [String] = []
        _ = await SimulationCommand.run(arguments: ["--seeds", "3", "--start", "7", "--steps", "15", "--verbose"]) {
            first.append($0)
        }
        _ = await SimulationCommand.run(arguments: ["--seeds", "3", "--start", "7", "--steps", "15", "--verbose"]) {
            second.append($0)
        }
        let traces = { (lines: [String]) in lines.filter { $0.hasPrefix("seed ") } }
        #expect(traces(first).count == 3)
        #expect(traces(first) == traces(second))
    }

    @Test("bad options print the usage and exit 2")
    func badOptions() async {
        let invocations = [
            [], ["--seeds"], ["--seeds", "x"], ["--seeds", "0"], ["--seeds", "1", "--steps", "0"], ["--bogus"],
        ]
        for arguments in invocations {
            var lines: [String] = []
            let status = await SimulationCommand.run(arguments: arguments) { lines.append($0) }
            #expect(status == 2, "\(arguments)")
            #expect(lines == [SimulationCommand.usage])
        }
    }
}
