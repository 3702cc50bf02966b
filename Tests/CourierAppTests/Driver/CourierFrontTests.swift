import CourierApp
import CourierTestSupport
import Foundation
import Testing

/// `courier` is two programs in one process: a one-shot send runs in a small front that maps CourierStore and
/// Foundation's essentials only — what an app extension's send can afford (issue 33) — and every other invocation is
/// handed to `courier-driver` by `execv` (docs/driver.md, "Invocation").
@Suite("courier: the one-shot front and the hand-over to the driver", .removesTemporaryDirectories)
struct CourierFrontTests {
    private let courier: URL

    init() throws { courier = try AppTestsCourierBinary.url() }

    #if os(Linux)
        @Test("the front maps Foundation's essentials, and neither the full Foundation nor FoundationNetworking")
        func frontMapsFoundationsEssentialsOnly() throws {
            // The dynamic loader lists what it maps for the executable and runs none of it (what `ldd` does).
            let listed = try ProductBinary.run(courier, [], environment: ["LD_TRACE_LOADED_OBJECTS": "1"]).output
            #expect(listed.contains("libFoundationEssentials"), "\(listed)")
            #expect(!listed.contains("libFoundation.so"), "\(listed)")
            #expect(!listed.contains("libFoundationNetworking"), "\(listed)")
            #expect(!listed.contains("libcurl"), "\(listed)")
        }
    #endif

    #if os(Linux)
        @Test("a session of the in-process world runs on the driver without the network: no networking library mapped")
        func aLocalSessionMapsNoNetworking() throws {
            // Given a session with neither --server nor --matrix, asked to write its memory map at exit
            let directory = AppTestsDriverHarness.temporaryDirectory()
            let data = directory.appendingPathComponent("data").path
            let map = directory.appendingPathComponent("smaps.txt")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let run = try ProductBinary.run(
                courier, ["--fresh", "--data-dir", data, "--script", "/dev/null"],
                environment: [MemoryMap.environmentKey: map.path])
            #expect(run.status == 0, "\(run.errors)")

            // Then the driver that ran it mapped the driver's libraries and no networking stack
            let mapped = MemoryMap(smaps: try String(contentsOf: map, encoding: .utf8)).resident.keys
            #expect(mapped.contains { $0.hasPrefix("courier-driver-local") }, "\(mapped.sorted())")
            #expect(!mapped.contains { $0.hasPrefix("libFoundationNetworking") || $0.hasPrefix("libcurl") })
        }
    #endif

    @Test("the driver without the network backends refuses --server and --matrix with a clear error, exit 2")
    func theLocalDriverRefusesTheNetwork() async throws {
        let data = AppTestsDriverHarness.temporaryDirectory().appendingPathComponent("data").path
        for option in ["--server", "--matrix"] {
            let arguments = ["--data-dir", data, option, "http://127.0.0.1:9", "--user", "me", "--script", "/dev/null"]
            #expect(await DriverMain.run(arguments: arguments) == 2)
        }
        #expect(!FileManager.default.fileExists(atPath: data))
    }

    @Test("a session goes on as the driver: --help prints the driver's usage, a script runs and its sends queue")
    func everyOtherInvocationIsTheDriver() throws {
        let data = AppTestsDriverHarness.temporaryDirectory().appendingPathComponent("data").path
        let help = try ProductBinary.run(courier, ["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: courier [--data-dir DIR]"))
        let bad = try ProductBinary.run(courier, ["--no-such-option"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("unknown option --no-such-option"))

        // Given a directory a session made, when a one-shot send composes into it, then the next session shows it
        #expect(try ProductBinary.run(courier, ["--fresh", "--data-dir", data, "--script", "/dev/null"]).status == 0)
        let sent = try ProductBinary.run(courier, ["--data-dir", data, "send", "c2", "from", "the", "front"])
        #expect(sent.status == 0, "\(sent.errors)")
        #expect(sent.output.split(separator: "\n").count == 1)
        let script = AppTestsDriverHarness.temporaryDirectory().appendingPathComponent("open.txt")
        try FileManager.default.createDirectory(
            at: script.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("open c2\n".utf8).write(to: script)
        let shown = try ProductBinary.run(courier, ["--data-dir", data, "--script", script.path])
        #expect(shown.output.contains("me: from the front  [Queued]"), "\(shown.output)")
    }

    @Test("without a driver beside it, a one-shot send still works and anything else says so and exits 127")
    func aFrontAlone() throws {
        let data = AppTestsDriverHarness.temporaryDirectory().appendingPathComponent("data").path
        #expect(try ProductBinary.run(courier, ["--fresh", "--data-dir", data, "--script", "/dev/null"]).status == 0)
        let alone = AppTestsDriverHarness.temporaryDirectory().appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let front = alone.appendingPathComponent("courier")
        try FileManager.default.copyItem(at: courier, to: front)

        let sent = try ProductBinary.run(front, ["--data-dir", data, "send", "c2", "hi"])
        #expect(sent.status == 0, "\(sent.errors)")
        let unknown = try ProductBinary.run(front, ["--data-dir", data, "send", "c999", "hi"])
        #expect(unknown.status == 1)
        #expect(unknown.errors == "courier: error: no conversation c999\n")
        let session = try ProductBinary.run(front, ["--help"])
        #expect(session.status == 127)
        #expect(session.errors.contains("courier: cannot start \(alone.path)/courier-driver"), "\(session.errors)")
    }
}
