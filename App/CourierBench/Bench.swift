import Foundation

/// Timing and formatting shared by the benchmarks.
enum Bench {
    /// Runs `body` and returns how long it took, in seconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The `percent` percentile of `samples` (nearest rank).
    static func percentile(_ samples: [Double], _ percent: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = Int((percent / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The median of `samples`.
    static func median(_ samples: [Double]) -> Double { percentile(samples, 50) }

    /// A duration for a person: µs (two decimals below 10 µs) below a millisecond, ms below a second.
    static func format(_ seconds: Double) -> String {
        if seconds < 1e-5 { return String(format: "%.2f µs", seconds * 1e6) }
        if seconds < 1e-3 { return String(format: "%.0f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }

    /// A ratio such as "1.23×".
    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    /// A markdown table.
    static func table(header: [String], rows: [[String]]) -> String {
        let lines = [header, header.map { _ in "---" }] + rows
        return lines.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }

    /// A fresh temporary directory; the caller removes it.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Bench {
    /// "yes", or a bold "no" that stands out in a table.
    static func verdict(_ met: Bool) -> String { met ? "yes" : "**no**" }
}
