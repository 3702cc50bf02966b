import Foundation

extension LiveBenchmark {
    // MARK: - Memory

    /// The driver's memory walk and the live walk, each in a process of its own, taking turns `memoryRuns` times.
    /// The live walk's backend stands in for a server holding 110,000 messages, more than the floor by itself:
    /// the app's peak is the process's start plus how far its peak rose once the backend's side was made
    /// (`LiveMemoryWalk`).
    func memoryRows() throws -> (floors: [[String]], rows: [[String]]) {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0])
        let courier = bench.deletingLastPathComponent().appendingPathComponent("courier")
        let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("docs/examples/memory-walk.txt")
        let canWalk =
            FileManager.default.isExecutableFile(atPath: courier.path)
            && FileManager.default.fileExists(atPath: script.path)
        var driver: [Double] = []
        var app: [Double] = []
        var rise: [Double] = []
        var whole: [Double] = []
        var rows: [[String]] = []
        for run in 1...memoryRuns {
            if canWalk, let peak = try driverWalk(courier: courier, script: script) {
                driver.append(Double(peak))
                rows.append(["\(run): `courier` memory walk", Self.megabytes(peak), Self.megabytes(peak), "—"])
            }
            let live = try liveWalk(bench)
            app.append(Double(live.start + live.rise))
            rise.append(Double(live.rise))
            whole.append(Double(live.whole))
            rows.append([
                "\(run): live walk", Self.megabytes(live.start + live.rise), Self.megabytes(live.whole), live.marks,
            ])
        }
        let floor = Double(memoryFloor)
        var floors: [[String]] = []
        if !driver.isEmpty {
            let peak = Bench.median(driver)
            floors.append([
                "memory walk, `courier --script docs/examples/memory-walk.txt`, peak (median of \(memoryRuns))",
                Self.megabytes(Int(peak)), "40 MB", Bench.ratio(peak / floor), "< 40 MB", Bench.verdict(peak < floor),
            ])
        }
        let appPeak = Bench.median(app)
        floors += [
            [
                "live walk (catch-up of \(LiveMemoryWalk.events.formatted()), the walk, a chat of "
                    + "\(LiveMemoryWalk.chatSize.formatted()) open): the app's peak, the process's start + the rise "
                    + "(median of \(memoryRuns))", Self.megabytes(Int(appPeak)), "40 MB", Bench.ratio(appPeak / floor),
                "< 40 MB", Bench.verdict(appPeak < floor),
            ],
            [
                "… of which the rise above the resident set once the backend's side was made",
                Self.megabytes(Int(Bench.median(rise))), "—", "—", "—", "",
            ],
            [
                "… the whole process's peak, its in-process backend of 110,000 messages included",
                Self.megabytes(Int(Bench.median(whole))), "—", "—", "—", "",
            ],
        ]
        return (floors, rows)
    }

    /// One run of the live walk in a child process: its resident set at start, how far its peak rose above the
    /// resident set at the reset, its whole peak, and its marks as text.
    func liveWalk(_ bench: URL) throws -> (start: Int, rise: Int, whole: Int, marks: String) {
        let outcome = try Self.runChild(bench, [LiveMemoryWalk.subcommand])
        guard outcome.status == 0 else { throw BenchFailure("`courier-bench \(LiveMemoryWalk.subcommand)` failed") }
        let marks = outcome.output.split(separator: "\n").compactMap { line -> LiveMemoryWalk.Mark? in
            let parts = line.split(separator: " ")
            guard parts.count >= 4, parts[0] == "mark", let resident = Int(parts[1]), let peak = Int(parts[2]) else {
                return nil
            }
            return LiveMemoryWalk.Mark(name: parts[3...].joined(separator: " "), resident: resident, peak: peak)
        }
        // start, server side made, reset, then the client's steps
        guard marks.count > 3, let last = marks.last else {
            throw BenchFailure("the live walk printed too few marks: \(outcome.output)")
        }
        let text = marks.map { "\($0.name) \(Self.megabytes($0.resident))" }.joined(separator: "; ")
        let whole = marks.map(\.peak).max() ?? 0
        return (marks[0].resident, last.peak - marks[2].resident, whole, text)
    }

    /// The peak resident set of `courier` running the driver's memory walk on a fresh directory, in bytes, as GNU
    /// time reports it (nil without it): it forks the driver itself, so the peak is the driver's alone.
    func driverWalk(courier: URL, script: URL) throws -> Int? {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else { return nil }
        let directory = try Bench.temporaryDirectory("walk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("time.txt")
        let outcome = try Self.runChild(
            time,
            [
                "-f", "%M", "-o", report.path, courier.path, "--data-dir",
                directory.appendingPathComponent("data").path, "--script", script.path,
            ])
        guard outcome.status == 0 else { throw BenchFailure("the driver's memory walk exited \(outcome.status)") }
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        guard let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw BenchFailure("GNU time printed no peak: \(text)")
        }
        return kilobytes * 1_024
    }

    /// Runs `executable` to its end; returns its exit status and what it wrote to standard output.
    nonisolated static func runChild(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Bytes as docs/benchmarks.md's Memory section writes them: MB of 1,000 kB, a kB being the KiB GNU time reports.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_024_000) }
}
