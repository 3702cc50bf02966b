import Foundation

/// `courier-bench live`, catch-up: a client whose cursor is N events behind — four peers sent N messages while it was
/// offline — comes back online and its `SyncEngine` applies them (`LiveCatchUpRun`); the baseline fetches the same
/// N messages again as pages of 50 (`LivePagesRun`). Both on a file-backed `CourierClient` in a fresh directory,
/// over the simulated network on a manual clock (latency costs no wall-clock time), every durable write a synced
/// append.
///
/// Each round makes a catch-up and a pages run of every size, then steps them in turn — always the one furthest
/// behind in its own work — so that all eight spread over the same seconds and meet the same disk weather; the
/// figures are medians over the rounds.
@MainActor
struct LiveCatchUp {
    /// Per size, one figure per round.
    struct Figures {
        /// Catch-up: wall-clock seconds per event.
        var catchUp: [Int: [Double]] = [:]
        /// Catch-up: CPU seconds (user + system) per event.
        var catchUpCPU: [Int: [Double]] = [:]
        /// Pages: wall-clock seconds per message.
        var pages: [Int: [Double]] = [:]
        /// Pages: CPU seconds per message.
        var pagesCPU: [Int: [Double]] = [:]
        /// Events the engine applied in the last catch-up of each size (the peers' messages plus the echoes of the
        /// delivered receipts it sent meanwhile).
        var applied: [Int: Int] = [:]
    }

    static let pageSize = 50
    let sizes: [Int]
    let rounds: Int

    func run() async throws -> Figures {
        var figures = Figures()
        for round in 0..<rounds {
            var runs: [any LiveRun] = []
            defer { for run in runs { run.close() } }
            for size in round.isMultiple(of: 2) ? sizes : sizes.reversed() {
                runs.append(try await LiveCatchUpRun(size: size))
                runs.append(try await LivePagesRun(size: size))
            }
            var running = Array(runs.indices)
            while let next = running.min(by: { runs[$0].progress < runs[$1].progress }) {
                guard try await !runs[next].step() else { continue }
                running.removeAll { $0 == next }
                record(runs[next], into: &figures)
            }
        }
        return figures
    }

    private func record(_ run: any LiveRun, into figures: inout Figures) {
        let count = Double(run.size)
        if let catchUp = run as? LiveCatchUpRun {
            figures.catchUp[run.size, default: []].append(run.seconds / count)
            figures.catchUpCPU[run.size, default: []].append(run.cpu / count)
            figures.applied[run.size] = catchUp.applied
        } else {
            figures.pages[run.size, default: []].append(run.seconds / count)
            figures.pagesCPU[run.size, default: []].append(run.cpu / count)
        }
    }
}
