import CourierTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `courier-server` child process (built next to `courier`), started on 127.0.0.1 and read up to its
/// `listening on …` line.
final class AppTestsServerProcess {
    private let process = Process()
    private let output = Pipe()
    /// The port it listens on.
    let port: UInt16

    /// Starts the server on `directory` (on `port`, or a free one) and waits at most `timeout` for its first line.
    init(directory: URL, port: UInt16 = 0, timeout: TimeInterval = 60) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = try AppTestsCourierBinary.serverURL()
        process.arguments = ["--data-dir", directory.path, "--port", "\(port)"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        let firstLine = DispatchSemaphore(value: 0)
        let box = AppTestsLineBox()
        Thread {
            var received = Data()
            while !received.contains(10) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            box.line = String(decoding: received.prefix { $0 != 10 }, as: UTF8.self)
            firstLine.signal()
        }.start()
        let prefix = "listening on http://127.0.0.1:"
        guard firstLine.wait(timeout: .now() + timeout) == .success, let line = box.line, line.hasPrefix(prefix),
            let bound = UInt16(line.dropFirst(prefix.count))
        else {
            process.terminate()
            throw ProductBinaryError(detail: "courier-server did not start: \(box.line ?? "no output")")
        }
        self.port = bound
    }

    /// The URL to give `courier --server`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Freezes it with SIGSTOP: it keeps its sockets (the kernel still accepts connections) and answers nothing.
    func freeze() { _ = Glibc.kill(process.processIdentifier, SIGSTOP) }

    /// Lets a frozen server run again (SIGCONT): it reads what waited on its sockets and answers.
    func thaw() { _ = Glibc.kill(process.processIdentifier, SIGCONT) }

    /// Kills it with SIGKILL and waits for it to be gone.
    func kill() {
        process.killAtOnce()
        process.waitUntilExit()
    }
}

extension AppTestsServerProcess {
    /// Runs `courier-server` with `arguments` to its end (killed after `timeout`); its exit status.
    static func exitStatus(_ arguments: [String], timeout: TimeInterval = 60) throws -> Int32 {
        let process = Process()
        process.executableURL = try AppTestsCourierBinary.serverURL()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
