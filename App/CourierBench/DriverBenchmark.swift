import CourierApp
import Foundation

/// `courier-bench driver`: what scripted commands cost through the driver (in this process, release build), as
/// ratios against a baseline measured in the same run.
///
/// - 2,000 offline sends against 2,000 single-row SQLite transactions (WAL, `synchronous=FULL`) made by python3's
///   `sqlite3` module, which syncs once per transaction like the outbox does per message.
/// - 1,000 offline sends into a chat and queue already holding 9,000 against the same into an empty one.
/// - `open` of a chat holding 10,000 queued messages against `open` of a chat of 3, as a command and as a whole
///   `courier --script` run (launch, open, print, exit) of the release binary beside the bench.
/// - `advance 3650d` with the list, a chat, the queue, the toast and a queued profile write all on the clock.
@MainActor
struct DriverBenchmark {
    private let rounds = 3
    /// Opens per side: each takes about 0.1 ms, and a shared machine moves single samples by half that.
    private let openRounds = 31
    /// Whole `courier` runs per side.
    private let processRounds = 11

    func run() async throws {
        var rows: [[String]] = []
        rows.append(try await sendsAgainstSQLite())
        rows.append(try processSendsAgainstSQLite())
        rows += try await queueScaling()
        rows.append(try await processOpen())
        rows.append(try await longAdvance())
        print("## courier-bench driver\n")
        print(Bench.table(header: ["measurement", "Courier", "baseline", "ratio", "floor", "met"], rows: rows))
    }

    // MARK: - Sends against SQLite

    private func sendsAgainstSQLite() async throws -> [String] {
        let sends = (1...2_000).map { "send m\($0)" }
        var driver: [Double] = []
        var sqlite: [Double] = []
        for _ in 0..<rounds {
            let session = try await Session(["network offline", "open c2"])
            driver.append(try await session.time(sends))
            session.close()
            sqlite.append(try Self.sqliteTransactions(2_000))
        }
        let (ours, theirs) = (Bench.median(driver), Bench.median(sqlite))
        return [
            "2,000 offline sends (median of \(rounds))", Bench.format(ours),
            "\(Bench.format(theirs)) (2,000 SQLite transactions, WAL, synchronous=FULL)", Bench.ratio(ours / theirs),
            "≤ 1.00×", Bench.verdict(ours / theirs <= 1),
        ]
    }

    /// The same 2,000 sends as a script of the release `courier` process reads them (its input thread, its screens
    /// printed to a pipe nobody reads), less the same process's run of the script's first two lines alone: what the
    /// sends add to a launch.
    private func processSendsAgainstSQLite() throws -> [String] {
        let courier = try Self.courierBinary()
        let directory = try Bench.temporaryDirectory("process-sends")
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = "network offline\nopen c2\n"
        let setupScript = directory.appendingPathComponent("setup.txt")
        let sendsScript = directory.appendingPathComponent("sends.txt")
        try Data(setup.utf8).write(to: setupScript)
        try Data((setup + (1...2_000).map { "send m\($0)\n" }.joined()).utf8).write(to: sendsScript)
        var driver: [Double] = []
        var sqlite: [Double] = []
        for round in 0..<rounds {
            let data = directory.appendingPathComponent("data\(round)")
            let sends = try Self.run(courier, directory: data, script: sendsScript, fresh: true)
            let launch = try Self.run(courier, directory: data, script: setupScript, fresh: true)
            driver.append(max(0, sends - launch))
            sqlite.append(try Self.sqliteTransactions(2_000))
        }
        let (ours, theirs) = (Bench.median(driver), Bench.median(sqlite))
        return [
            "2,000 offline sends through the release `courier` process, its launch subtracted (median of \(rounds))",
            Bench.format(ours), "\(Bench.format(theirs)) (the same SQLite transactions)", Bench.ratio(ours / theirs),
            "≤ 1.00×", Bench.verdict(ours / theirs <= 1),
        ]
    }

    /// Seconds python3 takes for `count` single-row transactions, timed inside python3 (its start-up excluded).
    static func sqliteTransactions(_ count: Int) throws -> Double {
        let directory = try Bench.temporaryDirectory("sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('pragma journal_mode=wal'); c.execute('pragma synchronous=full')
            c.execute('create table m(id text primary key, body blob)')
            t = time.perf_counter()
            for i in range(int(sys.argv[2])):
                c.execute('begin'); c.execute('insert into m values(?, ?)', (str(i), b'x' * 170)); c.execute('commit')
            print(time.perf_counter() - t)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program, directory.appendingPathComponent("m.db").path, "\(count)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0, let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchFailure("python3's sqlite3 baseline did not run: \(text)") }
        return seconds
    }

    // MARK: - Queue size

    /// The sends alternate in slices of 100 between the two sessions, so both meet the same disk weather (each
    /// send waits for one `fdatasync`, which neighbours' I/O can slow tenfold for seconds).
    private func queueScaling() async throws -> [[String]] {
        let small = try await Session(["network offline", "open c2"])
        let large = try await Session(["network offline", "open c2"] + (1...9_000).map { "send q\($0)" })
        defer {
            small.close()
            large.close()
        }
        var into0 = 0.0
        var into9 = 0.0
        var cpu0 = 0.0
        var cpu9 = 0.0
        for slice in 0..<10 {
            let batch = (1...100).map { "send n\(slice)-\($0)" }
            var before = Self.cpuTime()
            into0 += try await small.time(batch)
            cpu0 += Self.cpuTime() - before
            before = Self.cpuTime()
            into9 += try await large.time(batch)
            cpu9 += Self.cpuTime() - before
        }
        // Opening: the chat now holding 10,000 queued against a chat of 3 (c2 on a fresh directory).
        let fresh = try await Session(["network offline"])
        defer { fresh.close() }
        var openSmall: [Double] = []
        var openLarge: [Double] = []
        for _ in 0..<openRounds {
            _ = try await fresh.time(["open c1"])
            openSmall.append(try await fresh.time(["open c2"]))
            _ = try await large.time(["open c1"])
            openLarge.append(try await large.time(["open c2"]))
        }
        let (open3, open10) = (Bench.median(openSmall), Bench.median(openLarge))
        return [
            [
                "1,000 offline sends into a chat and queue of 9,000", Bench.format(into9),
                "\(Bench.format(into0)) (into an empty one)", Bench.ratio(into9 / into0), "≤ 1.50×",
                Bench.verdict(into9 / into0 <= 1.5),
            ],
            [
                "… their CPU time (user + system)", Bench.format(cpu9), "\(Bench.format(cpu0)) (into an empty one)",
                Bench.ratio(cpu9 / cpu0), "—", "",
            ],
            [
                "open a chat holding 10,000 queued (median of \(openRounds))", Bench.format(open10),
                "\(Bench.format(open3)) (open a chat of 3)", Bench.ratio(open10 / open3), "≤ 2.00×",
                Bench.verdict(open10 / open3 <= 2),
            ],
        ]
    }

    /// The process's CPU time so far (user + system), in seconds: what the sends cost apart from waiting on the disk.
    static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// A whole run of the release `courier` with the script `open c2`, on a directory whose c2 holds 10,000 queued
    /// messages against one whose c2 holds its 3 (both online, manual policy: the queue waits for the user).
    private func processOpen() async throws -> [String] {
        let courier = try Self.courierBinary()
        let large = try await Session(
            ["network offline", "open c2"] + (1...10_000).map { "send q\($0)" } + ["network online"])
        let small = try await Session(["conversations"])
        large.release()
        small.release()
        defer {
            large.remove()
            small.remove()
        }
        let script = try Bench.temporaryDirectory("open").appendingPathComponent("open.txt")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        try Data("open c2\n".utf8).write(to: script)
        var tenThousand: [Double] = []
        var three: [Double] = []
        for _ in 0..<processRounds {
            tenThousand.append(try Self.run(courier, directory: large.directory, script: script))
            three.append(try Self.run(courier, directory: small.directory, script: script))
        }
        let (ours, theirs) = (Bench.median(tenThousand), Bench.median(three))
        return [
            "`courier --script` of `open c2`, c2 holding 10,000 queued (median of \(processRounds))",
            Bench.format(ours),
            "\(Bench.format(theirs)) (c2 holding its 3)", Bench.ratio(ours / theirs), "≤ 2.00×",
            Bench.verdict(ours / theirs <= 2),
        ]
    }

    /// The release `courier` beside the bench.
    private static func courierBinary() throws -> URL {
        let courier = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("courier")
        guard FileManager.default.isExecutableFile(atPath: courier.path) else {
            throw BenchFailure("no courier binary beside the bench: swift build -c release first")
        }
        return courier
    }

    /// Seconds one run of `courier` on `directory` with `script` takes, launch to exit (`fresh`: on a fresh world).
    private static func run(_ courier: URL, directory: URL, script: URL, fresh: Bool = false) throws -> Double {
        let process = Process()
        process.executableURL = courier
        process.arguments = (fresh ? ["--fresh"] : []) + ["--data-dir", directory.path, "--script", script.path]
        process.standardOutput = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard process.terminationStatus == 0 else { throw BenchFailure("courier exited \(process.terminationStatus)") }
        return seconds
    }

    // MARK: - A long jump

    private func longAdvance() async throws -> [String] {
        var samples: [Double] = []
        for _ in 0..<rounds {
            let session = try await Session([
                "conversations", "open c2", "network offline", "send hi", "queue", "profile name Maria",
                "network online",
            ])
            samples.append(try await session.time(["advance 3650d"]))
            session.close()
        }
        let seconds = Bench.median(samples)
        return [
            "advance 3650d, list + chat + queue + toast + queued write (median of \(rounds))", Bench.format(seconds),
            "1 s", Bench.ratio(seconds), "< 1.00×", Bench.verdict(seconds < 1),
        ]
    }
}

/// A driver on a fresh temporary data directory with the virtual clock, its output discarded.
@MainActor
private final class Session {
    let directory: URL
    let driver: Driver

    init(_ setup: [String]) async throws {
        directory = try Bench.temporaryDirectory("driver")
        var options = DriverOptions()
        options.dataDirectory = directory
        options.fresh = true
        options.clock = .virtual
        driver = try Driver(options: options, inputIsTerminal: false, write: { _ in })
        await driver.start()
        guard await driver.run(lines: setup, stopOnFailure: true) == .success else {
            throw BenchFailure("the setup script failed")
        }
    }

    /// Seconds `lines` take; throws when one fails.
    func time(_ lines: [String]) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let status = await driver.run(lines: lines, stopOnFailure: true)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == .success else { throw BenchFailure("a timed command failed: \(lines.first ?? "")") }
        return seconds
    }

    func close() {
        release()
        remove()
    }

    /// Closes the driver (its lock released), keeping the data directory.
    func release() { driver.close() }

    /// Removes the data directory.
    func remove() { try? FileManager.default.removeItem(at: directory) }
}
