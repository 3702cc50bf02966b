import CourierTestSupport
import Foundation
import Testing

extension AppTestsChildProcesses {
    /// Every script in docs/examples passes with the real binary: `courier --fresh --data-dir DIR --script FILE`.
    @Suite("docs/examples", .removesTemporaryDirectories)
    struct ExampleScriptsTests {
        static let examples = AppTestsCourierBinary.packageRoot.appendingPathComponent("docs/examples")

        static var scripts: [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
            return names.filter { $0.hasSuffix(".txt") }.sorted()
        }

        @Test("the examples are there")
        func examplesExist() {
            #expect(Self.scripts.count >= 5, "\(Self.examples.path)")
        }

        @Test("each example script exits 0", arguments: scripts)
        func runs(_ name: String) throws {
            let directory = AppTestsDriverHarness.temporaryDirectory()
            let script = Self.examples.appendingPathComponent(name).path
            let run = try AppTestsCourierProcess.run(
                ["--fresh", "--data-dir", directory.path, "--script", script], input: [])
            #expect(run.status == 0, "\(name):\n\(run.lines.suffix(15).joined(separator: "\n"))\n\(run.errors)")
        }
    }
}
