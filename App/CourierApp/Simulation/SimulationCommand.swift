import CourierDomain
import CourierOneShot
import Foundation

/// The `courier-sim` program: `courier-sim --seeds N [--start S] [--steps K] [--verbose] [--keep-going]`.
///
/// Runs seeds `S ..< S+N`, each for `K` steps. Prints `N seeds, 0 invariant violations` and the run's figures and
/// returns 0; or, at the first seed that breaks an invariant, prints the violation and the command that replays
/// it, and returns 1. With `--keep-going` (what a soak runs) every seed runs: each violation is printed as it is
/// found, then `N seeds, V invariant violations` and the figures, and it returns 1 when V is above 0. Bad options
/// return 2. `--verbose` prints one line per seed with its trace hash.
public enum SimulationCommand {
    /// Steps per seed when `--steps` is not given.
    public static let defaultSteps = 200

    /// The usage line.
    public static let usage = "usage: courier-sim --seeds N [--start S] [--steps K] [--verbose] [--keep-going]"

    /// Runs the program with `arguments` (without the program name), writing lines through `write`.
    @MainActor
    public static func run(arguments: [String], write: (String) -> Void) async -> Int32 {
        guard let options = Options(arguments) else {
            write(usage)
            return 2
        }
        let started = Date()
        var violations = 0
        var totals = SimulationOutcome(seed: options.start)
        for seed in options.start..<(options.start &+ options.seeds) {
            let outcome = await Simulation.run(seed: seed, steps: options.steps)
            totals.steps += outcome.steps
            totals.composed += outcome.composed
            totals.crashes += outcome.crashes
            totals.restarts += outcome.restarts
            totals.tornTailsRecovered += outcome.tornTailsRecovered
            totals.writesLost += outcome.writesLost
            totals.peerActions += outcome.peerActions
            totals.convergenceChecks += outcome.convergenceChecks
            totals.startOvers += outcome.startOvers
            if options.verbose {
                write(
                    "seed \(seed): trace \(String(outcome.traceHash, radix: 16)), \(outcome.steps) steps, "
                        + "\(outcome.crashes) crashes, \(outcome.restarts) restarts, \(outcome.composed) sent")
            }
            if let first = outcome.violations.first {
                write("seed \(seed): invariant violated at step \(outcome.steps): \(first)")
                for detail in outcome.violations.dropFirst() { write(detail) }
                let steps = options.steps == defaultSteps ? "" : " --steps \(options.steps)"
                write("reproduce: courier-sim --seeds 1 --start \(seed)\(steps)")
                guard options.keepGoing else { return 1 }
                violations += 1
            }
        }
        let seconds = Date().timeIntervalSince(started)
        write("\(options.seeds) seeds, \(violations) invariant violations")
        write(
            "\(totals.steps) steps, \(totals.composed) messages composed, \(totals.crashes) crashes simulated "
                + "(\(totals.writesLost) unsynced writes lost or torn), \(totals.tornTailsRecovered) torn tails "
                + "recovered, \(totals.restarts) restarts, \(String(format: "%.1f", seconds)) s")
        write(
            "\(totals.peerActions) peer actions, \(totals.startOvers) start-overs, \(totals.convergenceChecks) "
                + "convergence checks")
        return violations == 0 ? 0 : 1
    }

    private struct Options {
        var seeds: UInt64 = 0
        var start: UInt64 = 0
        var steps = SimulationCommand.defaultSteps
        var verbose = false
        var keepGoing = false

        init?(_ arguments: [String]) {
            var remaining = arguments[...]
            var sawSeeds = false
            while let word = remaining.popFirst() {
                switch word {
                case "--verbose": verbose = true
                case "--keep-going": keepGoing = true
                case "--seeds", "--start", "--steps":
                    guard let text = remaining.popFirst(), let value = UInt64(text) else { return nil }
                    if word == "--seeds" { (seeds, sawSeeds) = (value, true) }
                    if word == "--start" { start = value }
                    if word == "--steps" {
                        guard value > 0, value <= 1_000_000 else { return nil }
                        steps = Int(value)
                    }
                default: return nil
                }
            }
            guard sawSeeds, seeds > 0 else { return nil }
        }
    }
}
