import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// The driver never destroys what is not its own and never hides damage: `--fresh`, `world.json`, damaged stores,
/// a second owner, files deleted under it, a full disk.
@Suite("Driver data directory", .serialized, .removesTemporaryDirectories)
@MainActor
struct DriverDataDirectoryTests {
    private let manager = FileManager.default

    private func write(_ text: String, to url: URL) throws {
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    // MARK: - --fresh

    @Test("--fresh on a folder of someone's files exits 2 and touches nothing; without a marker none is written")
    func freshRefusesForeignDirectory() async throws {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try write("my notes", to: directory.appendingPathComponent("notes.txt"))
        try manager.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)

        let status = await DriverMain.run(arguments: ["--data-dir", directory.path, "--fresh", "--script", "/dev/null"])

        #expect(status == Driver.ExitStatus.badInvocation.rawValue)
        #expect(try manager.contentsOfDirectory(atPath: directory.path).sorted() == ["notes.txt", "photos"])
        #expect(throws: DataDirectoryError.self) {
            try AppTestsDriverHarness(directory: directory, fresh: true)
        }
    }

    @Test("a directory Courier made is marked, and --fresh wipes it back to the demo data")
    func freshWipesCourierDirectory() async throws {
        let directory = try await AppTestsDriverHarness.directory(
            after: "open c2\nnetwork offline\nsend kept until fresh")
        #expect(manager.fileExists(atPath: directory.appendingPathComponent(DataDirectory.markerName).path))

        let again = try await AppTestsDriverHarness.started(directory: directory, fresh: true)
        #expect(try await again.number("queue.count") == 0)
        #expect(try await again.state()["network"]?["online"] == .bool(true))
    }

    @Test("a directory from before the marker (world.json, client, server, .lock) is Courier's; one file more is not")
    func legacyDirectories() throws {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try write("{}", to: directory.appendingPathComponent("world.json"))
        try write("", to: directory.appendingPathComponent(".lock"))
        try write("", to: directory.appendingPathComponent("client/outbox.log"))
        try manager.createDirectory(at: directory.appendingPathComponent("server"), withIntermediateDirectories: true)
        #expect(DataDirectory.kind(of: directory) == .courier)
        try write("x", to: directory.appendingPathComponent("thesis.tex"))
        #expect(DataDirectory.kind(of: directory) == .foreign("it holds thesis.tex"))
        #expect(DataDirectory.kind(of: directory.appendingPathComponent("none")) == .missing)
    }

    @Test("a foreign directory opened without --fresh is used but never marked, so a later --fresh still refuses it")
    func foreignDirectoryIsNeverMarked() async throws {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        try write("keep me", to: directory.appendingPathComponent("notes.txt"))
        let harness = try AppTestsDriverHarness(directory: directory, fresh: false)
        harness.close(keepDirectory: true)
        #expect(!manager.fileExists(atPath: directory.appendingPathComponent(DataDirectory.markerName).path))
        #expect(throws: DataDirectoryError.self) { try AppTestsDriverHarness(directory: directory, fresh: true) }
        #expect(manager.fileExists(atPath: directory.appendingPathComponent("notes.txt").path))
    }

    // MARK: - world.json

    @Test("world.json out of range (launches -5, clockNow 1e300, profile zzz) opens on defaults, naming the fields")
    func settingsOutOfRange() async throws {
        let directory = try await AppTestsDriverHarness.directory(
            after: "open c2\nnetwork offline\nsend survives bad settings")
        let settings = directory.appendingPathComponent("world.json")
        var text = try String(contentsOf: settings, encoding: .utf8)
        text = text.replacingOccurrences(of: #""launches":\d+"#, with: #""launches":-5"#, options: .regularExpression)
        text = text.replacingOccurrences(
            of: #""clockNow":[0-9.]+"#, with: #""clockNow":1e300"#, options: .regularExpression)
        text = text.replacingOccurrences(of: #""profile":"wifi""#, with: #""profile":"zzz""#)
        try Data(text.utf8).write(to: settings)

        let again = try await AppTestsDriverHarness.reopened(directory)
        let recovered = try await again.state()["storage"]?["recovered"]?.arrayValue ?? []
        #expect(recovered.compactMap { $0["field"]?.stringValue }.sorted() == ["clockNow", "launches", "profile"])
        #expect(recovered.allSatisfy { $0["file"] == .string("world.json") })
        #expect(again.warnings.count == 3)
        #expect(again.warnings.contains { $0.hasPrefix("warning: recovered world.json: launches: -5 is not a count") })
        #expect(try await again.number("queue.count") == 1)
        #expect(again.driver.world.settings.launches == 1)
        #expect(await again.execute("expect clock.now contains \"2026-\"").ok)
    }

    @Test("a truncated world.json opens with defaults and one report; the queued messages in client/ are intact")
    func settingsTruncated() async throws {
        let directory = try await AppTestsDriverHarness.directory(
            after: "open c2\nnetwork offline\nsend one\nsend two")
        let settings = directory.appendingPathComponent("world.json")
        try Data(try Data(contentsOf: settings).prefix(30)).write(to: settings)

        let again = try await AppTestsDriverHarness.reopened(directory)
        #expect(await again.execute("expect storage.recovered[0].field == \"*\"").ok)
        #expect(try await again.number("queue.count") == 2)
    }

    @Test("a huge world.json is damage: not read into memory, reported, defaults used")
    func settingsHuge() throws {
        let directory = AppTestsDriverHarness.temporaryDirectory()
        let path = directory.appendingPathComponent("world.json")
        try write("{\"launches\": 3" + String(repeating: " ", count: 100_000) + "}", to: path)
        let defaults = WorldSettings.initial(seed: 9, now: Date(timeIntervalSince1970: 0))
        let loaded = WorldSettings.load(from: path.path, fileSystem: PosixFileSystem(), defaults: defaults)
        #expect(loaded.settings == defaults)
        #expect(loaded.problems.map(\.field) == ["*"])
        #expect(loaded.problems.first?.reason.contains("100015 bytes") == true)
    }

    @Test("a launch count at its ceiling stays there instead of overflowing")
    func launchesSaturate() {
        var settings = WorldSettings.initial(seed: 1, now: Date(timeIntervalSince1970: 0))
        settings.launches = WorldSettings.maxLaunches
        settings.countLaunch()
        #expect(settings.launches == WorldSettings.maxLaunches)
        settings.launches = -3
        settings.countLaunch()
        #expect(settings.launches == 1)
    }

    // MARK: - Damaged stores

    @Test("a damaged outbox record is skipped and said out loud: storage.recovered names the file and the count")
    func damagedOutboxIsReported() async throws {
        let sends = (1...10).map { "send queued \($0)" }.joined(separator: "\n")
        let directory = try await AppTestsDriverHarness.directory(after: "open c2\nnetwork offline\n" + sends)
        let log = directory.appendingPathComponent("client/outbox.log")
        var bytes = try Data(contentsOf: log)
        // The middle of the records, not of the zero-filled space the file holds ahead of them
        let end = (bytes.lastIndex { $0 != 0 } ?? 0) + 1
        bytes[end / 2] ^= 0xFF
        try bytes.write(to: log)

        let again = try await AppTestsDriverHarness.reopened(directory)
        #expect(try await again.number("queue.count") == 9)
        let entry = try #require(try await again.state()["storage"]?["recovered"]?.arrayValue.first)
        #expect(entry["file"] == .string("client/outbox.log"))
        #expect(entry["skippedRecords"] == .int(1))
        #expect(
            again.warnings == [
                "warning: recovered client/outbox.log: 9 records recovered, 1 corrupt record skipped"
            ])
        // When a restart finds the same damage again, it is not said twice.
        #expect(await again.execute("restart").ok)
        #expect(again.warnings.count == 1)
        #expect(try await again.state()["storage"]?["recovered"]?.arrayValue.count == 1)
    }

    @Test("a clean directory reports nothing recovered")
    func cleanDirectory() async throws {
        let harness = try await AppTestsDriverHarness.started()
        #expect(await harness.execute("expect storage.recovered == []").ok)
        #expect(harness.warnings.isEmpty)
    }
}
