import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// A `Driver` on a fresh temporary data directory, with everything it prints captured, for in-process tests; closed
/// when the test ends (its suite removes temporary directories), or before by `close()`.
@MainActor
final class AppTestsDriverHarness {
    /// Every line the driver printed, in order.
    private(set) var output: [String] = []
    /// Every warning the driver gave (standard error for the program), in order.
    var warnings: [String] { sink.warnings }
    /// The data directory (removed by `close()` unless `keepDirectory`).
    let directory: URL
    /// The driver under test.
    let driver: Driver
    private let sink: AppTestsLineSink
    private var isClosed = false

    /// Opens a driver on `directory` (a new temporary one by default), on the virtual clock unless told otherwise.
    init(
        directory: URL? = nil, json: Bool = false, seed: UInt64 = 1, fresh: Bool = true, clock: ClockMode = .virtual,
        fileSystem: any FileSystem = PosixFileSystem()
    ) throws {
        let directory = directory ?? Self.temporaryDirectory()
        var options = DriverOptions()
        options.dataDirectory = directory
        options.json = json
        options.seed = seed
        options.fresh = fresh
        options.clock = clock
        let sink = AppTestsLineSink()
        self.sink = sink
        self.directory = directory
        driver = try Driver(
            options: options, inputIsTerminal: false, write: { sink.lines.append($0) },
            warn: { sink.warnings.append($0) }, fileSystem: fileSystem)
        // The test's end closes the driver; the directory goes with the test's other temporary directories (a
        // directory the harness was given, on a simulated disk say, is not its to remove).
        TemporaryDirectory.closeWhenTestEnds { [self] in await close(keepDirectory: true) }
    }

    /// A driver opened as `init` does, its start-up work finished and, when given, `script` run (it must succeed):
    /// where most tests begin.
    static func started(
        directory: URL? = nil, json: Bool = false, seed: UInt64 = 1, fresh: Bool = true, clock: ClockMode = .virtual,
        fileSystem: any FileSystem = PosixFileSystem(), running script: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> AppTestsDriverHarness {
        let harness = try AppTestsDriverHarness(
            directory: directory, json: json, seed: seed, fresh: fresh, clock: clock, fileSystem: fileSystem)
        await harness.start()
        if let script { await harness.expectScript(script, sourceLocation: sourceLocation) }
        return harness
    }

    /// A started driver on the data directory an earlier one left (not wiped: the next launch of the same app).
    static func reopened(_ directory: URL) async throws -> AppTestsDriverHarness {
        try await started(directory: directory, fresh: false)
    }

    /// The data directory a started driver leaves after running `script` (which must succeed) and closing: the
    /// state a test then damages, or reopens.
    static func directory(after script: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> URL
    {
        let harness = try await started(running: script, sourceLocation: sourceLocation)
        harness.close(keepDirectory: true)
        return harness.directory
    }

    /// A path under the system's temporary directory that nothing uses yet.
    nonisolated static func temporaryDirectory() -> URL {
        TemporaryDirectory.unusedURL(prefix: "courier-apptests")
    }

    /// Lets the start-up work finish.
    func start() async {
        await driver.start()
        collect()
    }

    /// Runs a script (one command per line) in script mode and expects every line to succeed; a failure shows the
    /// last lines printed.
    func expectScript(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let status = await run(script)
        #expect(
            status == .success, "\(output.suffix(12).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// Runs a script (one command per line) in script mode; returns the exit status.
    @discardableResult
    func run(_ script: String, stopOnFailure: Bool = true) async -> Driver.ExitStatus {
        let status = await driver.run(lines: script.components(separatedBy: "\n"), stopOnFailure: stopOnFailure)
        collect()
        return status
    }

    /// Runs one line; returns whether it succeeded and what it printed.
    @discardableResult
    func execute(_ line: String, number: Int = 1) async -> (ok: Bool, lines: [String]) {
        let before = sink.lines.count
        let ok = await driver.execute(line: line, number: number)
        let printed = Array(sink.lines[before...])
        collect()
        return (ok, printed)
    }

    /// The state document, through the `state` command.
    func state() async throws -> JSONValue {
        let result = await execute("state")
        #expect(result.ok)
        return try JSONParser.parse(try #require(result.lines.last))
    }

    /// The messages the backend stores for `conversation` as `(id, text)`, from the JSON of `server ID N` (the
    /// command's own JSON result, whatever the output mode).
    func server(_ conversation: String, last count: Int = 1_000) async throws -> [(id: String, text: String)] {
        let render = try await driver.perform("server", "\(conversation) \(count)")
        let document = try #require(render().json)
        return document["messages"].map(\.arrayValue)?.map { message in
            (id: message["id"]?.stringValue ?? "", text: message["text"]?.stringValue ?? "")
        } ?? []
    }

    /// A number at `path` of the state document.
    func number(_ path: String) async throws -> Int {
        let document = try await state()
        let value = try Expectation.parse("\(path) == 0").resolve(in: document)
        guard case .number(let number)? = value else {
            Issue.record("\(path) is not a number: \(value?.text ?? "missing")")
            return -1
        }
        return Int(number)
    }

    /// Closes the driver and (unless kept) removes the data directory; the end of the test does it too, and a second
    /// close does nothing.
    func close(keepDirectory: Bool = false) {
        guard !isClosed else { return }
        isClosed = true
        driver.close()
        if !keepDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    private func collect() {
        output = sink.lines
    }
}
