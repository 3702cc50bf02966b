import Foundation

extension LiveBenchmark {
    // MARK: - Charts

    func writeCharts(_ catchUp: LiveCatchUp.Figures, _ incoming: LiveIncoming.Figures) throws {
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
