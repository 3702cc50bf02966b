import CourierApp
import Foundation

/// `courier-bench soak`: the simulation (`courier-sim`, docs/reliability.md) over many seeds — 100,000 unless
/// `COURIER_SOAK_SEEDS` says otherwise, from seed `COURIER_SOAK_START` (0) — in chunks of 1,000 seeds, each chunk a
/// `courier-sim --keep-going` process of its own beside the bench, as many at once as the machine has cores. Every
/// seed runs; each one that breaks an invariant is listed with its violation and the command that replays it, and
/// the soak fails. Not part of `all`: on two
/// cores 100,000 seeds take about three hours.
@MainActor
struct SoakBenchmark {
    /// Seeds per `courier-sim` process.
    nonisolated static let chunk: UInt64 = 1_000

    /// What one chunk printed, read back: its seeds, steps and crashes, or its violation.
    struct Chunk: Sendable {
        var start: UInt64
        var seeds: UInt64
        var status: Int32
        var output: String

        /// The number before `label` on the line that holds it (`60000 steps` → 60000).
        func figure(_ label: String) -> Int {
            for line in output.split(separator: "\n") {
                let words = line.split(separator: " ")
                for (index, word) in words.enumerated().dropFirst() where word.hasPrefix(label) {
                    if let value = Int(words[index - 1]) { return value }
                }
            }
            return 0
        }
    }

    func run() throws {
        print("## courier-bench soak\n")
        let environment = ProcessInfo.processInfo.environment
        let seeds = environment["COURIER_SOAK_SEEDS"].flatMap(UInt64.init) ?? 100_000
        let start = environment["COURIER_SOAK_START"].flatMap(UInt64.init) ?? 0
        let simulator = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("courier-sim")
        guard FileManager.default.isExecutableFile(atPath: simulator.path) else {
            throw BenchFailure("needs `courier-sim` beside the bench (swift build -c release)")
        }
        let starts = Array(stride(from: start, to: start + seeds, by: Int(Self.chunk)))
        let results = Results()
        let began = Date()
        // As many processes at once as there are cores: each chunk waits for its process on a thread of its own.
        DispatchQueue.concurrentPerform(iterations: starts.count) { index in
            let first = starts[index]
            let count = min(Self.chunk, start + seeds - first)
            let arguments = ["--seeds", "\(count)", "--start", "\(first)", "--keep-going"]
            let run = try? LiveBenchmark.runChild(simulator, arguments)
            let chunk = Chunk(start: first, seeds: count, status: run?.status ?? -1, output: run?.output ?? "")
            let done = results.add(chunk)
            FileHandle.standardError.write(
                Data("soak: seeds \(first)..<\(first + count): exit \(chunk.status) (\(done)/\(starts.count))\n".utf8))
        }
        let seconds = Date().timeIntervalSince(began)
        let chunks = results.all.sorted { $0.start < $1.start }
        let failed = chunks.filter { $0.status != 0 }
        let passedSeeds = chunks.filter { $0.status == 0 }.reduce(0) { $0 + $1.seeds }
        let violations = chunks.reduce(0) { $0 + $1.figure("invariant") }
        print("| seeds | from | violations | steps | crashes simulated | restarts | wall time | processes at once |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        print(
            "| \(seeds) | \(start) | \(violations) | \(chunks.reduce(0) { $0 + $1.figure("steps") }) | "
                + "\(chunks.reduce(0) { $0 + $1.figure("crashes") }) | \(chunks.reduce(0) { $0 + $1.figure("restarts") }) | "
                + "\(String(format: "%.0f s", seconds)) | \(ProcessInfo.processInfo.activeProcessorCount) |")
        for line in chunks.flatMap({ $0.output.split(separator: "\n") })
        where line.contains("invariant violated") || line.hasPrefix("reproduce:") {
            print(line)
        }
        guard failed.isEmpty else {
            throw BenchFailure(
                "\(violations) seed(s) broke an invariant; \(failed.count) of \(chunks.count) chunks failed "
                    + "(\(passedSeeds) seeds in chunks without one)")
        }
    }

    /// The chunks finished so far, from every thread.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var chunks: [Chunk] = []

        /// Adds `chunk`; returns how many are done.
        func add(_ chunk: Chunk) -> Int {
            lock.withLock {
                chunks.append(chunk)
                return chunks.count
            }
        }

        var all: [Chunk] { lock.withLock { chunks } }
    }
}
