import Foundation

/// `courier-bench live`: what listening costs (issue 19's floors), in this process, as ratios against baselines
/// measured in the same run.
///
/// - Catch-up (`LiveCatchUp`): cost per event at 10,000 events behind against 1,000 (≤ 1.5×), and against fetching
///   the same messages again as pages (≤ 0.5×).
/// - Incoming (`LiveIncoming`): one message into an open chat of 100,000 against a chat of 3 (≤ 2×).
/// - Memory (`LiveMemoryWalk`, in child processes): the memory walk with the live scenario stays under 40 MB.
///
/// It prints the tables and writes the charts `docs/bench-catch-up.svg` and `docs/bench-incoming.svg` (when run
/// from the package's root, as `.build/release/courier-bench live`).
@MainActor
struct LiveBenchmark {
    private let catchUpSizes = [1_000, 2_000, 5_000, 10_000]
    private let catchUpRounds = 9
    private let chatSizes = [3, 1_000, 10_000, 100_000]
    private let incomingRounds = 5
    private let messagesPerRound = 60
    private let memoryRuns = 3
    /// 40 MB as the Memory section of docs/benchmarks.md counts it: 40,000 of the kilobytes (KiB) GNU time reports.
    private let memoryFloor = 40_000 * 1_024

    func run() async throws {
        print("## courier-bench live\n")
        let catchUp = try await LiveCatchUp(sizes: catchUpSizes, rounds: catchUpRounds).run()
        let incoming = try await LiveIncoming(
            sizes: chatSizes, rounds: incomingRounds, messagesPerRound: messagesPerRound
        ).run()
        var floors = catchUpFloors(catchUp)
        floors += incomingFloor(incoming)
        let memory = try memoryRows()
        floors += memory.floors
        print(Bench.table(header: ["measurement", "Courier", "baseline", "ratio", "floor", "met"], rows: floors))
        print("\n### Catch-up, per size (median of \(catchUpRounds) rounds)\n")
        print(catchUpTable(catchUp))
        print("\n### Incoming, per chat size (median of \(incomingRounds) × \(messagesPerRound) messages)\n")
        print(incomingTable(incoming))
        print("\n### Every round\n")
        print(roundsTable(catchUp, incoming))
        print("\n### Memory (peak resident set of a process of its own)\n")
        print(Bench.table(header: ["run", "app's peak", "process's peak", "resident at each mark"], rows: memory.rows))
        try writeCharts(catchUp, incoming)
    }

    // MARK: - Floors

    private func catchUpFloors(_ figures: LiveCatchUp.Figures) -> [[String]] {
        guard let small = catchUpSizes.first, let large = catchUpSizes.last else { return [] }
        let at10 = Bench.median(figures.catchUp[large] ?? [])
        let at1 = Bench.median(figures.catchUp[small] ?? [])
        let pages = Bench.median(figures.pages[large] ?? [])
        let cpu = Bench.median(figures.catchUpCPU[large] ?? [])
        let pagesCPU = Bench.median(figures.pagesCPU[large] ?? [])
        return [
            [
                "catch-up, per event, \(large.formatted()) behind (median of \(catchUpRounds))", Bench.format(at10),
                "\(Bench.format(at1)) (the same, \(small.formatted()) behind)", Bench.ratio(at10 / at1), "≤ 1.50×",
                Bench.verdict(at10 / at1 <= 1.5),
            ],
            [
                "catch-up, per event, \(large.formatted()) behind (median of \(catchUpRounds))", Bench.format(at10),
                "\(Bench.format(pages)) (the same messages re-fetched as pages of \(LiveCatchUp.pageSize))",
                Bench.ratio(at10 / pages), "≤ 0.50×", Bench.verdict(at10 / pages <= 0.5),
            ],
            [
                "… its CPU time (user + system) per event", Bench.format(cpu),
                "\(Bench.format(pagesCPU)) (the pages')", Bench.ratio(cpu / pagesCPU), "—", "",
            ],
        ]
    }

    private func incomingFloor(_ figures: LiveIncoming.Figures) -> [[String]] {
        guard let small = chatSizes.first, let large = chatSizes.last else { return [] }
        let ours = Bench.median(figures.perMessage[large] ?? [])
        let baseline = Bench.median(figures.perMessage[small] ?? [])
        let cpu = Bench.median(figures.cpu[large] ?? [])
        let baselineCPU = Bench.median(figures.cpu[small] ?? [])
        return [
            [
                "one incoming message until its row shows, open chat of \(large.formatted()) (median of "
                    + "\(incomingRounds) × \(messagesPerRound) messages)", Bench.format(ours),
                "\(Bench.format(baseline)) (into a chat of \(small))", Bench.ratio(ours / baseline), "≤ 2.00×",
                Bench.verdict(ours / baseline <= 2),
            ],
            [
                "… its CPU time (user + system)", Bench.format(cpu),
                "\(Bench.format(baselineCPU)) (the chat of \(small)'s)", Bench.ratio(cpu / baselineCPU), "—", "",
            ],
        ]
    }

    // MARK: - Tables

    private func catchUpTable(_ figures: LiveCatchUp.Figures) -> String {
        let rows = catchUpSizes.map { size -> [String] in
            let ours = Bench.median(figures.catchUp[size] ?? [])
            let pages = Bench.median(figures.pages[size] ?? [])
            return [
                size.formatted(), Bench.format(ours), Bench.format(Bench.median(figures.catchUpCPU[size] ?? [])),
                Bench.format(pages), Bench.format(Bench.median(figures.pagesCPU[size] ?? [])),
                Bench.ratio(ours / pages), (figures.applied[size] ?? 0).formatted(),
            ]
        }
        let header = [
            "events behind", "catch-up per event", "… CPU", "pages per message", "… CPU", "catch-up / pages",
            "events applied",
        ]
        return Bench.table(header: header, rows: rows)
    }

    private func incomingTable(_ figures: LiveIncoming.Figures) -> String {
        let baseline = Bench.median(figures.perMessage[chatSizes.first ?? 3] ?? [])
        let rows = chatSizes.map { size -> [String] in
            let ours = Bench.median(figures.perMessage[size] ?? [])
            return [
                size.formatted(), Bench.format(ours), Bench.format(Bench.median(figures.cpu[size] ?? [])),
                Bench.ratio(ours / baseline), "\(figures.rows[size] ?? 0)",
            ]
        }
        let header = ["messages in the chat", "per message", "… CPU", "vs the chat of 3", "rows shown at the end"]
        return Bench.table(header: header, rows: rows)
    }

    private func roundsTable(_ catchUp: LiveCatchUp.Figures, _ incoming: LiveIncoming.Figures) -> String {
        let large = catchUpSizes.last ?? 0
        let small = catchUpSizes.first ?? 0
        let ratios = { (top: [Double], bottom: [Double]) -> String in
            zip(top, bottom).map { Bench.ratio($0 / $1) }.joined(separator: ", ")
        }
        let chatLarge = chatSizes.last ?? 0
        let chatSmall = chatSizes.first ?? 0
        let rows = [
            [
                "catch-up \(large.formatted()) / \(small.formatted()) per event",
                ratios(catchUp.catchUp[large] ?? [], catchUp.catchUp[small] ?? []),
            ],
            [
                "catch-up / pages at \(large.formatted())",
                ratios(catchUp.catchUp[large] ?? [], catchUp.pages[large] ?? []),
            ],
            [
                "incoming, chat of \(chatLarge.formatted()) / chat of \(chatSmall)",
                ratios(incoming.roundMedians[chatLarge] ?? [], incoming.roundMedians[chatSmall] ?? []),
            ],
        ]
        return Bench.table(header: ["ratio", "round by round"], rows: rows)
    }

    // MARK: - Memory

    /// The driver's memory walk and the live walk, each in a process of its own, taking turns `memoryRuns` times.
    /// The live walk's backend stands in for a server holding 110,000 messages, more than the floor by itself:
    /// the app's peak is the process's start plus how far its peak rose once the backend's side was made
    /// (`LiveMemoryWalk`).
    private func memoryRows() throws -> (floors: [[String]], rows: [[String]]) {
        let bench = URL(fileURLWithPath: CommandLine.arguments[0])
        let courier = bench.deletingLastPathComponent().appendingPathComponent("courier")
        let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("docs/examples/memory-walk.txt")
        let canWalk = FileManager.default.isExecutableFile(atPath: courier.path)
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
    private func liveWalk(_ bench: URL) throws -> (start: Int, rise: Int, whole: Int, marks: String) {
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
    private func driverWalk(courier: URL, script: URL) throws -> Int? {
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
    private static func runChild(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
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

    // MARK: - Charts

    private func writeCharts(_ catchUp: LiveCatchUp.Figures, _ incoming: LiveIncoming.Figures) throws {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let docs = root.appendingPathComponent("docs")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: docs.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            print("\n(no docs/ here: charts not written; run from the package's root)")
            return
        }
        let medians = { (figures: [Int: [Double]], sizes: [Int]) in
            sizes.map { (x: Double($0), seconds: Bench.median(figures[$0] ?? [])) }
        }
        let caught = medians(catchUp.catchUp, catchUpSizes)
        let paged = medians(catchUp.pages, catchUpSizes)
        let catchUpUnit = Self.unit(for: (caught + paged).map(\.seconds))
        let points = { (values: [(x: Double, seconds: Double)], unit: (scale: Double, name: String), factor: Double) in
            values.map { SVGLineChart.Point(x: $0.x, y: $0.seconds * unit.scale * factor) }
        }
        let catchUpChart = SVGLineChart(
            title: "Catch-up: cost per event against events behind",
            xLabel: "events behind (peers' messages in 4 conversations)",
            yLabel: "\(catchUpUnit.name) per event (median)",
            series: [
                .init(name: "catch-up through the sync engine", points: points(caught, catchUpUnit, 1)),
                .init(
                    name: "baseline: the same messages re-fetched as pages of \(LiveCatchUp.pageSize)",
                    points: points(paged, catchUpUnit, 1)),
                .init(name: "floor: 0.5 × the pages", points: points(paged, catchUpUnit, 0.5), dashed: true),
            ])
        let arrived = medians(incoming.perMessage, chatSizes)
        let baseline = Bench.median(incoming.perMessage[chatSizes.first ?? 3] ?? [])
        let flat = chatSizes.map { (x: Double($0), seconds: baseline) }
        let incomingUnit = Self.unit(for: arrived.map(\.seconds) + [baseline])
        let incomingChart = SVGLineChart(
            title: "One incoming message, arrival at the backend to its row in the open chat",
            xLabel: "messages in the open chat", yLabel: "\(incomingUnit.name) per message (median)",
            series: [
                .init(name: "into the open chat of that size", points: points(arrived, incomingUnit, 1)),
                .init(
                    name: "baseline: into the chat of \(chatSizes.first ?? 3)", points: points(flat, incomingUnit, 1)),
                .init(name: "floor: 2 × the baseline", points: points(flat, incomingUnit, 2), dashed: true),
            ])
        let files = [("bench-catch-up.svg", catchUpChart), ("bench-incoming.svg", incomingChart)]
        for (name, chart) in files {
            try Data(chart.svg().utf8).write(to: docs.appendingPathComponent(name), options: .atomic)
        }
        print("\nCharts: " + files.map { "docs/\($0.0)" }.joined(separator: ", "))
    }

    /// The unit a chart of these durations reads best in: µs below 2 ms, ms from there.
    private static func unit(for seconds: [Double]) -> (scale: Double, name: String) {
        (seconds.max() ?? 0) < 2e-3 ? (1e6, "µs") : (1e3, "ms")
    }
}
