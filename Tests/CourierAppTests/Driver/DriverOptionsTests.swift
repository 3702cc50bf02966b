import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

@Suite("DriverOptions.parse", .removesTemporaryDirectories)
struct DriverOptionsTests {
    @Test("no arguments: every default (./.courier, stdin, text output, seed 1, clock chosen at start)")
    func defaults() throws {
        let options = try DriverOptions.parse([])
        #expect(options == DriverOptions())
        #expect(options.dataDirectory.lastPathComponent == ".courier")
        #expect(options.scriptPath == nil)
        #expect(!options.json && !options.fresh)
        #expect(options.seed == 1)
        #expect(options.clock == nil)
    }

    @Test("every flag sets its option")
    func everyFlag() throws {
        let options = try DriverOptions.parse([
            "--data-dir", "/tmp/d", "--script", "run.txt", "--json", "--fresh", "--seed", "42", "--clock", "system",
        ])
        #expect(options.dataDirectory.path == "/tmp/d")
        #expect(options.scriptPath == "run.txt")
        #expect(options.json)
        #expect(options.fresh)
        #expect(options.seed == 42)
        #expect(options.clock == .system)
        #expect(try DriverOptions.parse(["--clock", "virtual"]).clock == .virtual)
        #expect(try DriverOptions.parse(["--seed", "18446744073709551615"]).seed == UInt64.max)
    }

    @Test(
        "bad invocations are errors",
        arguments: [
            ["--data-dir"], ["--script"], ["--seed"], ["--clock"], ["--seed", "abc"], ["--seed", "-1"],
            ["--seed", "1.5"], ["--seed", "18446744073709551616"], ["--clock", "fast"], ["--clock", "Virtual"],
            ["--bogus"], ["data"], ["-j"], ["--script", "--json"], ["--data-dir", "--fresh"], ["--data-dir", ""],
        ])
    func badInvocation(_ arguments: [String]) {
        #expect(throws: DriverError.self) { try DriverOptions.parse(arguments) }
    }

    @Test("--help and -h ask for the usage; they are not an error")
    func help() throws {
        #expect(try DriverOptions.parse(["--help"]).help)
        #expect(try DriverOptions.parse(["-h"]).help)
        #expect(try !DriverOptions.parse([]).help)
    }

    @Test("--seed -1 says which numbers it takes")
    func negativeSeed() {
        #expect(throws: DriverError.badArguments("--seed takes a whole number from 0 to \(UInt64.max), not -1")) {
            try DriverOptions.parse(["--seed", "-1"])
        }
    }

    @Test("--help exits 0 and opens no data directory; --data-dir \"\" exits 2")
    @MainActor
    func helpAndEmptyDataDirectoryExitStatus() async {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        #expect(await DriverMain.run(arguments: ["--data-dir", directory.path, "--help"]) == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(await DriverMain.run(arguments: ["--data-dir", "", "--fresh"]) == 2)
    }

    @Test("a bad invocation exits with status 2 and does not touch any data directory")
    @MainActor
    func badInvocationExitStatus() async {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        let status = await DriverMain.run(arguments: ["--data-dir", directory.path, "--seed", "x"])
        #expect(status == Driver.ExitStatus.badInvocation.rawValue)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        let missingScript = await DriverMain.run(arguments: [
            "--data-dir", directory.path, "--script", directory.appendingPathComponent("none.txt").path,
        ])
        #expect(missingScript == Driver.ExitStatus.badInvocation.rawValue)
    }

    @Test("a script that is not a regular file (a device, a pipe) is read like any other")
    @MainActor
    func scriptFromDevice() async {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        let status = await DriverMain.run(arguments: ["--fresh", "--data-dir", directory.path, "--script", "/dev/null"])
        #expect(status == Driver.ExitStatus.success.rawValue)
    }
}
