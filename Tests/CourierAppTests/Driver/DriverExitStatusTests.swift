import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// The exit statuses a script caller relies on, as numbers (docs/driver.md): 0 success, 1 a failed line, 2 a bad
/// invocation, 3 a data directory that cannot be opened.
@Suite("Driver: exit status numbers", .removesTemporaryDirectories)
@MainActor
struct DriverExitStatusTests {
    @Test("each outcome exits with its documented number")
    func documentedNumbers() async throws {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passing = directory.appendingPathComponent("pass.txt")
        try Data("help\n".utf8).write(to: passing)
        let failing = directory.appendingPathComponent("fail.txt")
        try Data("no-such-command\n".utf8).write(to: failing)
        let data = directory.appendingPathComponent("data").path
        // A plain file where the data directory should be: it cannot be opened
        let notADirectory = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: notADirectory)

        #expect(await DriverMain.run(arguments: ["--fresh", "--data-dir", data, "--script", passing.path]) == 0)
        #expect(await DriverMain.run(arguments: ["--fresh", "--data-dir", data, "--script", failing.path]) == 1)
        #expect(await DriverMain.run(arguments: ["--data-dir", data, "--bogus"]) == 2)
        #expect(await DriverMain.run(arguments: ["--data-dir", notADirectory.path, "--script", passing.path]) == 3)
    }
}
