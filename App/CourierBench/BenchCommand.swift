import Foundation

// courier-bench: performance measurements that the tests deliberately leave out (docs/benchmarks.md).
// Each subcommand registers one line here; run one with `swift run -c release courier-bench <name>`, or every one
// in turn with `courier-bench all`. Subcommands run on the main actor, where the view models and the simulated
// network live.

@MainActor
public enum BenchCommand {
    static let subcommands: [(name: String, summary: String, run: @MainActor () async throws -> Void)] = [
        (
            "store", "durable enqueue, enqueue vs a whole-file JSON rewrite, opening 10,000",
            { try StoreBenchmark().run() }
        ),
        (
            "queue-state", "Offline Queue screen over 10,000 queued: first state, one event, vs rows by hand",
            { try QueueStateBenchmark().run() }
        ),
        (
            "batch", "Send All of 100 queued on 3G: batches of 25 vs one at a time",
            { try await BatchBenchmark().run() }
        ),
        ("page", "a page of 50 by cursor: 100,000 messages vs 1,000", { try PageBenchmark().run() }),
        (
            "records", "every record type encoded and decoded, binary bodies vs JSON of the same values",
            { try RecordsBenchmark().run() }
        ),
        (
            "writes", "10,000 writes through the write queue vs raw record-log appends",
            { try await WritesBenchmark().run() }
        ),
        (
            "http", "sends per second over HTTP on 127.0.0.1 vs in process; Send All of 100 batched vs one by one",
            { try await HTTPBenchmark().run() }
        ),
        (
            "driver", "scripted sends vs SQLite, sends and open at 10,000 queued, advance 3650d",
            { try await DriverBenchmark().run() }
        ),
        (
            "live", "catch-up of 10,000 vs 1,000 and vs pages, a message into a chat of 100,000 vs 3, memory, charts",
            { try await LiveBenchmark().run() }
        ),
        (
            "memory", "peak memory: one-shot send, driver walk, live walk vs a Foundation hello world",
            { try MemoryBenchmark().run() }
        ),
        (
            "live-http", "two people over loopback HTTP: Ben's message on Me's open chat vs one synced send",
            { try await LiveHTTPBenchmark().run() }
        ),
        (
            "outage", "server outages of 1 min to 2 h: probes spent, time from the server back to the queue stored",
            { try await OutageBenchmark().run() }
        ),
        (
            "matrix", "Courier over a real Synapse vs bare requests: one send, catch-up of 1,000, the other's message",
            { try await MatrixBenchmark().run() }
        ),
        (
            "lie-fi", "a frozen backend: open a held chat vs up, send → unreachable, thaw → queue stored",
            { try await LieFiBenchmark().run() }
        ),
        (
            "shared", "one data directory, several processes: a one-shot send's wall time, appends/s from 1, 2 and 8",
            { try SharedOutboxBenchmark().run() }
        ),
        (
            "attacks", "issue 32's attacks on the release courier-server: honest sends, p99 vs unattacked, server RSS",
            { try await AttackBenchmark().run() }
        ),
        (
            "soak", "the simulation over 100,000 seeds (COURIER_SOAK_SEEDS, COURIER_SOAK_START), not part of all",
            { try SoakBenchmark().run() }
        ),
    ]

    /// Subcommands `all` leaves out: they take hours.
    static let long: Set<String> = ["soak"]

    static func usage() -> String {
        let lines = subcommands.map { "  \($0.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \($0.summary)" }
        let all =
            "  \("all".padding(toLength: 12, withPad: " ", startingAt: 0)) every subcommand above but soak, in turn"
        let text = ["usage: courier-bench <subcommand>", "", "subcommands:"] + lines + [all]
        return text.joined(separator: "\n") + "\n"
    }

    /// Runs the subcommand the command line names (`courier-bench <name>`, `all`, or the usage without one).
    public static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        if ProcessInfo.processInfo.environment["COURIER_BENCH_ROLE"] == "shared-writer" {
            // A writer of `shared`, started by it as a process of its own.
            do { try SharedOutboxBenchmark.writer(Array(arguments)) } catch {
                FileHandle.standardError.write(Data("courier-bench shared-writer: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        if ProcessInfo.processInfo.environment["COURIER_BENCH_ROLE"] == "sender" {
            // Ben's side of `live-http`, started by it as a process of its own.
            do { try await LiveHTTPBenchmark.sender(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("courier-bench sender: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        // Not a subcommand of its own: `live` starts it in a child process to read that process's peak memory.
        if arguments.first == LiveMemoryWalk.subcommand {
            do {
                try await LiveMemoryWalk().run()
            } catch {
                FileHandle.standardError.write(Data("courier-bench \(LiveMemoryWalk.subcommand): \(error)\n".utf8))
                exit(1)
            }
            return
        }
        let chosen =
            arguments.first == "all"
            ? subcommands.filter { !long.contains($0.name) } : subcommands.filter { $0.name == arguments.first }
        guard !chosen.isEmpty else {
            FileHandle.standardError.write(Data(usage().utf8))
            exit(2)
        }
        for (position, subcommand) in chosen.enumerated() {
            if position > 0 { print() }
            do {
                try await subcommand.run()
            } catch {
                FileHandle.standardError.write(Data("courier-bench \(subcommand.name): \(error)\n".utf8))
                exit(1)
            }
        }
    }
}
