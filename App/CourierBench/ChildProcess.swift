import Foundation

/// A child process with a line-writable standard input and a readable first line.
final class ChildProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Reads standard output up to its first line, which must start with `prefix`; returns the rest, and keeps
    /// draining the output in the background so the child never blocks on a full pipe.
    func firstLine(prefix: String) throws -> String {
        var received = Data()
        let handle = output.fileHandleForReading
        while !received.contains(10) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        let line = String(decoding: received.prefix { $0 != 10 }, as: UTF8.self)
        drain()
        guard line.hasPrefix(prefix) else { throw BenchFailure("unexpected first line: \(line)") }
        return String(line.dropFirst(prefix.count))
    }

    /// Writes `line` and a newline to standard input.
    func write(_ line: String) {
        if !drained { drain() }
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    private var drained = false

    private func drain() {
        drained = true
        let handle = output.fileHandleForReading
        Thread {
            while !handle.availableData.isEmpty {}
        }.start()
    }

    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
