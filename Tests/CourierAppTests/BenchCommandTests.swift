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
            let folder = try AppTestsCourierBinary.url().deletingLastPathComponent()
            let bench = folder.appendingPathComponent("courier-bench")
            if !FileManager.default.isExecutableFile(atPath: bench.path) {
                // `swift test` builds every product here, but a filtered or IDE run may not have.
                let build = Process()
                build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                build.arguments = [
                    "swift", "build", "--product", "courier-bench", "--package-path",
                    AppTestsCourierBinary.packageRoot.path,
                ]
                try build.run()
                build.waitUntilExit()
            }
            try #require(FileManager.default.isExecutableFile(atPath: bench.path), "\(bench.path)")

            // When it runs the Send All benchmark
            let process = Process()
            process.executableURL = bench
            process.arguments = ["batch"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()

            // Then it finishes, every message arrived in order, and the batches took 4 round trips
            #expect(process.terminationStatus == 0, "\(failure)")
            #expect(printed.contains("| round trips to deliver 100 | 4 | 100 | 25.00× fewer | ≥ 10× fewer | yes |"))
        }
    }
}
