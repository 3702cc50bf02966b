import CourierTestSupport
import Foundation
import Testing

extension AppTestsChildProcesses {
    /// The benchmark binary still runs its deterministic measurement to the end. Its figures are simulated time and
    /// round trips, the same on every machine, so this checks that the run finishes and delivers, not how fast.
    @Suite("courier-bench")
    struct BenchCommandTests {
        @Test("`courier-bench batch` delivers 100 queued in 4 batched round trips against 100 one at a time")
        func batchRunsToTheEnd() throws {
            // Given the benchmark built beside the driver
            let bench = try ProductBinary.url("courier-bench", environment: "COURIER_BENCH_BINARY")

            // When it runs the Send All benchmark
            let run = try ProductBinary.run(bench, ["batch"])

            // Then it finishes, every message arrived in order, and the batches took 4 round trips
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("| round trips to deliver 100 | 4 | 100 | 25.00× fewer | ≥ 10× fewer | yes |"))
        }
    }
}
