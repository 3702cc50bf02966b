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
    let catchUpSizes = [1_000, 2_000, 5_000, 10_000]
    let catchUpRounds = 9
    let chatSizes = [3, 1_000, 10_000, 100_000]
    let incomingRounds = 5
    let messagesPerRound = 60
    let memoryRuns = 3
    /// 40 MB as the Memory section of docs/benchmarks.md counts it: 40,000 of the kilobytes (KiB) GNU time reports.
    let memoryFloor = 40_000 * 1_024

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
}
