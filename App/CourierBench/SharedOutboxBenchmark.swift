import CourierData
import CourierDomain
import Foundation

/// `courier-bench shared`: one data directory, several processes (issue 22). A one-shot `courier send`'s wall time
/// (launch → durable → exit), and durable appends per second to one shared outbox from 1, 2 and 8 writer processes
/// at once (this binary in its `COURIER_BENCH_ROLE=shared-writer` role, each a guest store appending in a loop).
struct SharedOutboxBenchmark {
    private let appendsPerRun = 800
    private let oneShotSamples = 20

    func run() throws {
        let root = try Bench.temporaryDirectory("shared")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var rows: [[String]] = [try oneShot(folder.appendingPathComponent("courier"), in: root)]
        for writers in [1, 2, 8] {
            let directory = root.appendingPathComponent("writers-\(writers)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let each = appendsPerRun / writers
            let start = DispatchTime.now().uptimeNanoseconds
            let children = try (0..<writers).map { index in
                try Self.start(
                    folder.appendingPathComponent("courier-bench"), [directory.path, "\(each)", "w\(index)"])
            }
            for child in children { child.waitUntilExit() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard children.allSatisfy({ $0.terminationStatus == 0 }) else { throw BenchFailure("a writer failed") }
            let store = try FileOutboxStore(directory: directory, access: .guest)
            let count = store.count
            store.close()
            guard count == each * writers else { throw BenchFailure("\(count) of \(each * writers) stored") }
            rows.append([
                "\(writers) process(es) × \(each) appends", String(format: "%.0f appends/s", Double(count) / seconds),
                Bench.format(seconds),
            ])
        }
        print("## courier-bench shared\n")
        print(Bench.table(header: ["measurement", "figure", "wall time"], rows: rows))
    }

    /// The median wall time of a one-shot `courier send`, launch to exit, beside no running driver.
    private func oneShot(_ courier: URL, in root: URL) throws -> [String] {
        let directory = root.appendingPathComponent("one-shot")
        let setup = try Self.start(courier, ["--data-dir", directory.path, "--fresh", "--script", "/dev/null"])
        setup.waitUntilExit()
        var times: [Double] = []
        for index in 0..<oneShotSamples {
            let start = DispatchTime.now().uptimeNanoseconds
            let child = try Self.start(courier, ["--data-dir", directory.path, "send", "c2", "one-shot \(index)"])
            child.waitUntilExit()
            guard child.terminationStatus == 0 else {
                throw BenchFailure("courier send exited \(child.terminationStatus)")
            }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let median = times.sorted()[times.count / 2]
        return ["one-shot `courier send` (median of \(oneShotSamples))", Bench.format(median), Bench.format(median)]
    }

    private static func start(_ executable: URL, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        if executable.lastPathComponent == "courier-bench" {
            process.environment = ProcessInfo.processInfo.environment.merging(["COURIER_BENCH_ROLE": "shared-writer"]) {
                $1
            }
        }
        try process.run()
        return process
    }

    /// The writer role: appends `count` messages to the outbox in `directory` as a guest, one durable append each.
    static func writer(_ arguments: [String]) throws {
        guard arguments.count == 3, let count = Int(arguments[1]) else { throw BenchFailure("writer DIR COUNT TAG") }
        let store = try FileOutboxStore(directory: URL(fileURLWithPath: arguments[0]), access: .guest)
        defer { store.close() }
        let now = Date()
        for index in 0..<count {
            let message = Message(
                id: MessageID("\(arguments[2])-\(index)"), conversationID: "c1", senderID: "me",
                text: "append \(index)", timestamp: now.addingTimeInterval(Double(index)), status: .queued)
            _ = try store.enqueueComposed(message)
        }
    }
}
