@testable import CourierApp
import Foundation
import Testing

@Suite("DriverOptions.parse")
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
        defer { try? FileManager.default.removeItem(at: directory) }
        let status = await DriverMain.run(arguments: ["--fresh", "--data-dir", directory.path, "--script", "/dev/null"])
        #expect(status == Driver.ExitStatus.success.rawValue)
    }
}

@Suite("DurationText")
struct DurationTextTests {
    @Test("milliseconds, seconds, minutes, hours and days")
    func units() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("10s") == .seconds(10))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("2h") == .seconds(7_200))
        #expect(DurationText.parse("8d") == .seconds(8 * 86_400))
        #expect(DurationText.parse("0s") == .zero)
        #expect(DurationText.parse("1.5s") == .milliseconds(1_500))
        #expect(DurationText.parse("3650d") == .seconds(3_650 * 86_400))
    }

    @Test(
        "anything else is rejected",
        arguments: [
            "", "10", "ms", "s", "-1s", "10x", "abc", "10 s", " 10s", "5M", "1e400s", "nans", "infs", "3651d",
            "1w", "10sec", "5mins",
        ])
    func bad(_ text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("advance with a bad duration fails the command and leaves the clock where it was")
    @MainActor
    func advanceRejectsBadDuration() async throws {
        let harness = try await AppTestsDriverHarness.started()
        defer { harness.close() }
        let before = try await harness.state()["clock"]?["now"]
        let result = await harness.execute("advance 10parsecs", number: 7)
        #expect(!result.ok)
        #expect(result.lines == ["error: line 7: usage: advance DURATION (500ms, 10s, 5m, 2h, 8d)"])
        #expect(try await harness.state()["clock"]?["now"] == before)
        #expect(await harness.execute("advance 2h").lines == ["clock: 2026-01-01T11:00:00.000Z"])
    }
}
