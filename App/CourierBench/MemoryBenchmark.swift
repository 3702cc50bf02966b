import CourierApp
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `courier-bench memory`: what a process of Courier's costs in memory and start-up beside a Foundation hello world
/// built in the same run (issue 33), each in a child process of its own, peak resident sets as GNU time reports them.
///
/// - the one-shot send (`courier --data-dir D send c2 …`, an app extension's reply): peak ≤ the floor + 4 MB, wall
///   time ≤ 3 × the hello world's + one `fdatasync`;
/// - the driver's memory walk (`docs/examples/memory-walk.txt`): peak ≤ the floor + 12 MB;
/// - the live walk (`LiveMemoryWalk`): the app's peak, beside the floor.
///
/// The hello world is compiled by the toolchain's `swiftc -O` into a temporary directory; without `swiftc` or
/// `/usr/bin/time` the benchmark says so and stops.
@MainActor
struct MemoryBenchmark {
    let runs = 5
    let timedRuns = 11

    func run() throws {
        print("## courier-bench memory\n")
        let bench = URL(fileURLWithPath: CommandLine.arguments[0])
        let courier = bench.deletingLastPathComponent().appendingPathComponent("courier")
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: courier.path),
            FileManager.default.isExecutableFile(atPath: time.path)
        else { throw BenchFailure("needs `courier` beside the bench and GNU time at /usr/bin/time") }
        let work = try Bench.temporaryDirectory("memory")
        defer { try? FileManager.default.removeItem(at: work) }
        let hello = try Self.helloWorld(in: work)
        let data = work.appendingPathComponent("data")
        let prepared = try LiveBenchmark.runChild(
            courier, ["--data-dir", data.path, "--fresh", "--script", "/dev/null"])
        guard prepared.status == 0 else { throw BenchFailure("the driver could not prepare \(data.path)") }
        let send = [courier.path, "--data-dir", data.path, "send", "c2", "a reply from an extension"]

        var floor: [Double] = []
        var oneShot: [Double] = []
        var walk: [Double] = []
        var live: [Double] = []
        let live0 = LiveBenchmark()
        let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("docs/examples/memory-walk.txt")
        for _ in 0..<runs {
            floor.append(Double(try Self.peak(of: [hello.path], time: time, in: work)))
            oneShot.append(Double(try Self.peak(of: send, time: time, in: work)))
            if let peak = try live0.driverWalk(courier: courier, script: script) { walk.append(Double(peak)) }
            let walked = try live0.liveWalk(bench)
            live.append(Double(walked.start + walked.rise))
        }
        var helloTimes: [Double] = []
        var sendTimes: [Double] = []
        for _ in 0..<timedRuns {
            helloTimes.append(try Self.wallTime(hello, []))
            sendTimes.append(try Self.wallTime(courier, Array(send.dropFirst())))
        }
        let sync = try Self.fdatasyncTime(in: work)
        let base = Bench.median(floor)
        let megabyte = 1_024_000.0
        let sendPeak = Bench.median(oneShot)
        let sendTime = Bench.median(sendTimes)
        let helloTime = Bench.median(helloTimes)
        var rows: [[String]] = [
            [
                "Foundation hello world, `swiftc -O` (median of \(runs)): the floor",
                LiveBenchmark.megabytes(Int(base)),
                "—", "—", "—", "",
            ],
            [
                "one-shot send, `courier --data-dir D send c2 …`, peak (median of \(runs))",
                LiveBenchmark.megabytes(Int(sendPeak)), Self.beside(sendPeak, base),
                Bench.ratio(sendPeak / base), "≤ floor + 4 MB", Bench.verdict(sendPeak - base <= 4 * megabyte),
            ],
            [
                "one-shot send, wall time (median of \(timedRuns))", Bench.format(sendTime),
                "\(Bench.format(helloTime)) (hello world) + \(Bench.format(sync)) (one `fdatasync`)",
                Bench.ratio(sendTime / (helloTime + sync)), "≤ 3 × hello + one fdatasync",
                Bench.verdict(sendTime <= 3 * helloTime + sync),
            ],
        ]
        if !walk.isEmpty {
            let peak = Bench.median(walk)
            rows.append([
                "driver's memory walk, `courier --script docs/examples/memory-walk.txt`, peak (median of \(runs))",
                LiveBenchmark.megabytes(Int(peak)), Self.beside(peak, base),
                Bench.ratio(peak / base), "≤ floor + 12 MB", Bench.verdict(peak - base <= 12 * megabyte),
            ])
        }
        let livePeak = Bench.median(live)
        rows.append([
            "live walk, the app's peak (median of \(runs))", LiveBenchmark.megabytes(Int(livePeak)),
            Self.beside(livePeak, base), Bench.ratio(livePeak / base), "—", "",
        ])
        print(Bench.table(header: ["measurement", "Courier", "against", "ratio", "floor", "met"], rows: rows))
        if !walk.isEmpty { try contributors(courier: courier, script: script, in: work) }
    }

    /// Names what the memory walk holds resident above the hello world, mapping by mapping, read from each
    /// process's own `/proc/self/smaps` at its exit (`MemoryMap`; the driver writes its map when
    /// `COURIER_MEMORY_MAP` names a file, the hello world built for this does alike). Runs apart from the peaks
    /// above, so that writing the map changes none of them.
    private func contributors(courier: URL, script: URL, in work: URL) throws {
        let mapFile = work.appendingPathComponent("smaps.txt")
        let hello = try Self.helloWorld(in: work, writingMap: true)
        setenv(MemoryMap.environmentKey, mapFile.path, 1)
        defer { unsetenv(MemoryMap.environmentKey) }
        func map(_ executable: URL, _ arguments: [String]) throws -> MemoryMap {
            try? FileManager.default.removeItem(at: mapFile)
            let outcome = try LiveBenchmark.runChild(executable, arguments)
            guard outcome.status == 0, let text = try? String(contentsOf: mapFile, encoding: .utf8) else {
                throw BenchFailure("\(executable.lastPathComponent) wrote no memory map")
            }
            return MemoryMap(smaps: text)
        }
        let floor = try map(hello, [])
        let data = work.appendingPathComponent("walk-map")
        let walked = try map(courier, ["--data-dir", data.path, "--fresh", "--script", script.path])
        let above = walked.above(floor)
        print(
            "\nThe memory walk's resident memory at exit, \(LiveBenchmark.megabytes(walked.total)), against the hello"
                + " world's, \(LiveBenchmark.megabytes(floor.total)) (`/proc/self/smaps` of each): the biggest"
                + " contributors above the floor\n")
        let rows = above.prefix(8).enumerated().map { index, entry in
            [String(index + 1), "`\(entry.name)`", LiveBenchmark.megabytes(entry.bytes)]
        }
        print(Bench.table(header: ["rank", "mapping", "above the floor"], rows: rows))
        let named = above.prefix(3).map { "\($0.name) (\(LiveBenchmark.megabytes($0.bytes)))" }
        print("\nThe three biggest: \(named.joined(separator: ", ")).")
        // What the floor does not map at all: libraries linked for what the walk never does (the networking stack).
        let absent = above.filter { floor.resident[$0.name] == nil && $0.name.contains(".so") }
        let largest = absent.prefix(4).map(\.name).joined(separator: ", ")
        print(
            "Libraries the hello world does not map at all: \(absent.count), "
                + "\(LiveBenchmark.megabytes(absent.map(\.bytes).reduce(0, +))) (the largest: \(largest)).")
    }

    /// Where `peak` stands against the floor `base`: "floor + 2.0 MB", or "floor − 1.7 MB" below it.
    static func beside(_ peak: Double, _ base: Double) -> String {
        peak >= base
            ? "floor + \(LiveBenchmark.megabytes(Int(peak - base)))"
            : "floor − \(LiveBenchmark.megabytes(Int(base - peak)))"
    }

    /// Compiles a Foundation hello world with the toolchain's `swiftc -O`; returns the executable. `writingMap`: one
    /// that also writes its `/proc/self/smaps` to the file `COURIER_MEMORY_MAP` names, as the driver does.
    private static func helloWorld(in directory: URL, writingMap: Bool = false) throws -> URL {
        let name = writingMap ? "hello-map" : "hello"
        let source = directory.appendingPathComponent(name + ".swift")
        let executable = directory.appendingPathComponent(name)
        let mapWriting = """
            if let path = ProcessInfo.processInfo.environment["\(MemoryMap.environmentKey)"],
                let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") {
                var smaps = Data()
                while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty { smaps.append(chunk) }
                try? smaps.write(to: URL(fileURLWithPath: path))
            }

            """
        try Data(
            ("""
            import Foundation
            print("hello, world at \\(Date().timeIntervalSince1970 > 0 ? "a time" : "no time")")

            """ + (writingMap ? mapWriting : "")).utf8
        ).write(to: source)
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let built = try LiveBenchmark.runChild(env, ["swiftc", "-O", source.path, "-o", executable.path])
        guard built.status == 0 else { throw BenchFailure("swiftc could not build the hello world") }
        return executable
    }

    /// The peak resident set of `command`, in bytes, as GNU time reports it.
    private static func peak(of command: [String], time: URL, in directory: URL) throws -> Int {
        let report = directory.appendingPathComponent("time.txt")
        let outcome = try LiveBenchmark.runChild(time, ["-f", "%M", "-o", report.path] + command)
        guard outcome.status == 0 else {
            throw BenchFailure("\(command.joined(separator: " ")) exited \(outcome.status)")
        }
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        guard let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0) }) else {
            throw BenchFailure("GNU time printed no peak: \(text)")
        }
        return kilobytes * 1_024
    }

    /// How long `executable` takes from launch to exit, in seconds.
    private static func wallTime(_ executable: URL, _ arguments: [String]) throws -> Double {
        let start = ContinuousClock.now
        let outcome = try LiveBenchmark.runChild(executable, arguments)
        guard outcome.status == 0 else {
            throw BenchFailure("\(executable.lastPathComponent) exited \(outcome.status)")
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// One `fdatasync` of a small append, median of 11, on the disk of `directory`.
    private static func fdatasyncTime(in directory: URL) throws -> Double {
        let path = directory.appendingPathComponent("sync.bin").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchFailure("cannot open \(path)") }
        defer { close(descriptor) }
        var samples: [Double] = []
        let bytes = [UInt8](repeating: 7, count: 233)
        for _ in 0..<11 {
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            let start = ContinuousClock.now
            fdatasync(descriptor)
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return Bench.median(samples)
    }
}
