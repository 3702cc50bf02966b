import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// What the driver does with odd input: line ends, bytes, tabs, control characters, limits, REFs and expectations.
@Suite("Driver input", .serialized, .removesTemporaryDirectories)
@MainActor
struct DriverInputTests {
    /// Runs `bytes` as a script file through the real entry point; returns the exit status.
    private func runScript(_ bytes: [UInt8]) async throws -> Int32 {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("script.txt")
        try Data(bytes).write(to: script)
        return await DriverMain.run(arguments: [
            "--data-dir", directory.appendingPathComponent("data").path, "--script", script.path,
        ])
    }

    @Test("a CRLF script runs line by line: a failing expect fails it, a holding one passes")
    func crlfScript() async throws {
        #expect(try await runScript(Array("open c2\r\nexpect chat.count == 99\r\n".utf8)) == 1)
        #expect(try await runScript(Array("open c2\r\nexpect chat.count == 3\r\n".utf8)) == 0)
    }

    @Test("a line that is not UTF-8, or longer than 1 MiB, is a failed command; the script stops there")
    func unreadableLines() async throws {
        #expect(try await runScript(Array("open c2\n".utf8) + [0xFF, 0x0A] + Array("quit\n".utf8)) == 1)
        let long = [UInt8](repeating: 0x61, count: LineReader.maxLineBytes + 10)
        #expect(try await runScript(long + Array("\nquit\n".utf8)) == 1)
        #expect(try await runScript(Array("open c2\nquit\n".utf8)) == 0)
    }

    @Test("a directory given as the script is a bad invocation (exit 2), like a missing file")
    func scriptIsDirectory() async {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        let status = await DriverMain.run(arguments: [
            "--data-dir", directory.appendingPathComponent("data").path, "--script", NSTemporaryDirectory(),
        ])
        #expect(status == Driver.ExitStatus.badInvocation.rawValue)
    }

    @Test("the failed line is named in the error")
    func failedLineIsNamed() async throws {
        let harness = try AppTestsDriverHarness()
        #expect(!harness.driver.reject(number: 7, "the line is not valid UTF-8"))
        #expect(await harness.execute("").lines.isEmpty)
        #expect(harness.output == ["error: line 7: the line is not valid UTF-8"])
        let result = await harness.execute("bogus", number: 4)
        #expect(result.lines == ["error: line 4: unknown command 'bogus' (try 'help')"])
    }

    @Test("tabs separate words like spaces: send<TAB>hi sends hi")
    func tabs() async throws {
        let harness = try await AppTestsDriverHarness.started()
        #expect(await harness.execute("open\tc2").ok)
        #expect(await harness.execute("send\thi").ok)
        #expect(await harness.execute("expect chat.messages[-1].text == \"hi\"").ok)
    }

    @Test("ESC, BEL and other control characters in a message are printed escaped, never raw")
    func controlCharactersEscaped() async throws {
        let harness = try await AppTestsDriverHarness.started()
        #expect(await harness.execute("open c2").ok)
        let result = await harness.execute("send red \u{1B}[31malert\u{07} done\u{9B}")
        #expect(result.ok)
        let line = try #require(result.lines.last)
        #expect(line.contains("red \\u{1B}[31malert\\u{7} done\\u{9B}"))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("a bidirectional override in a message is printed escaped, so the line reads in the order it was sent")
    func bidiControlsEscaped() async throws {
        let harness = try await AppTestsDriverHarness.started()
        #expect(await harness.execute("open c2").ok)
        let result = await harness.execute("send invoice \u{202E}fdp.exe\u{202C} and \u{2067}x\u{2069} — ok")
        #expect(result.ok)
        let line = try #require(result.lines.last)
        #expect(line.contains("invoice \\u{202E}fdp.exe\\u{202C} and \\u{2067}x\\u{2069} — ok"))
        #expect(
            !line.unicodeScalars.contains {
                (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            })
    }

    @Test("with --json, control characters are JSON escapes, so the line stays valid JSON")
    func controlCharactersInJSON() async throws {
        let harness = try await AppTestsDriverHarness.started(json: true)
        #expect(await harness.execute("open c2").ok)
        #expect(await harness.execute("send bell\u{07} csi\u{9B}").ok)
        let state = await harness.execute("state")
        let line = try #require(state.lines.last)
        #expect(line.contains(#"bell\u0007 csi\u009b"#))
        let document = try JSONParser.parse(line)
        let last = document["chat"]?["messages"]?.arrayValue.last?["text"]
        #expect(last == .string("bell\u{07} csi\u{9B}"))
    }

    @Test("help takes no arguments, like every other command")
    func helpExtra() async throws {
        let harness = try AppTestsDriverHarness()
        #expect(await harness.execute("help").ok)
        let result = await harness.execute("help extra")
        #expect(!result.ok)
        #expect(result.lines == ["error: line 1: help takes no arguments"])
    }

    @Test("profile name: an empty name and one past 64 characters are refused with their own words")
    func displayNameLimits() async throws {
        let harness = try await AppTestsDriverHarness.started()
        #expect(await harness.execute("profile name   ").lines == ["error: line 1: a display name cannot be empty"])
        let long = String(repeating: "n", count: 65)
        #expect(
            await harness.execute("profile name \(long)").lines
                == ["error: line 1: a display name is at most 64 characters (this one has 65)"])
        let longest = String(repeating: "n", count: 64)
        #expect(await harness.execute("profile name \(longest)").ok)
        #expect(await harness.execute("expect profile.displayName == \"\(longest)\"").ok)
    }

    @Test("expect: objects compare whatever their key order, every string contains \"\", 1e400 is refused")
    func expectations() async throws {
        let harness = try await AppTestsDriverHarness.started()
        let network = #"{"type": "wifi", "reachable": true, "failRate": 0, "profile": "wifi", "online": true}"#
        #expect(await harness.execute("expect network == \(network)").ok)
        let other = network.replacingOccurrences(of: #""profile": "wifi""#, with: #""profile": "3g""#)
        #expect(!(await harness.execute("expect network == \(other)").ok))
        #expect(await harness.execute(#"expect banner.text contains """#).ok)
        let huge = await harness.execute("expect server.requests < 1e400")
        #expect(!huge.ok)
        #expect(huge.lines.last?.contains("1e400 is out of range") == true)
    }

    @Test("queue REFs: a number is a position, @prefix an id; listings print @prefix; an ambiguous prefix lists them")
    func queueReferences() async throws {
        let harness = try await AppTestsDriverHarness.started(
            running: "open c2\nnetwork offline\nsend first\nsend second")
        let listing = await harness.execute("queue")
        let ids = harness.driver.app.messaging.queue.state.rows.map(\.id.rawValue)
        #expect(listing.lines.contains { $0.hasSuffix("(@\(ids[1].prefix(8)))") })

        #expect(await harness.execute("queue edit @\(ids[1].prefix(6)) renamed").ok)
        #expect(await harness.execute("expect queue.items[1].text == \"renamed\"").ok)
        #expect(await harness.execute("queue delete 1").ok)
        #expect(await harness.execute("expect queue.items[0].text == \"renamed\"").ok)
        #expect(!(await harness.execute("queue delete 2").ok))
        #expect(!(await harness.execute("queue delete \(ids[1].prefix(6))").ok))
    }
}
