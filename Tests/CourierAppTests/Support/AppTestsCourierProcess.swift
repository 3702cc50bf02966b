import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running `courier`, fed on standard input, its standard output read line by line as it comes.
final class AppTestsCourierProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var pending = Data()
    private var completeLines: [String] = []
    private let reachedEnd = DispatchSemaphore(value: 0)

    /// Starts `courier` with `arguments`.
    init(arguments: [String]) throws {
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = try AppTestsCourierBinary.url()
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let handle = output.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                append(chunk)
            }
            reachedEnd.signal()
        }.start()
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// The complete lines printed so far.
    var lines: [String] { lock.withLock { completeLines } }

    /// Writes `lines` to standard input, each ended by a newline. False when the child is gone.
    @discardableResult
    func send(_ lines: [String]) -> Bool {
        let text = lines.map { $0 + "\n" }.joined()
        do {
            try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
            return true
        } catch {
            return false
        }
    }

    /// Ends standard input: the driver finishes the commands it has and exits.
    func closeInput() {
        let wasOpen = lock.withLock {
            defer { inputClosed = true }
            return !inputClosed
        }
        if wasOpen { try? input.fileHandleForWriting.close() }
    }

    private var inputClosed = false

    /// Waits (polling the child's output, up to `timeout` seconds) until `count` lines have been printed.
    func waitForLines(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while lines.count < count {
            if Date() > deadline || !process.isRunning && reachedEndOfOutput(wait: 0) { return lines.count >= count }
            usleep(500)
        }
        return true
    }

    /// SIGKILL, at once.
    func kill() { process.killAtOnce() }

    /// Waits for the exit (killing the child after `timeout` seconds); returns the exit status (the signal number
    /// for a killed child), every complete line and standard error.
    func finish(timeout: TimeInterval = 60) -> (status: Int32, killed: Bool, lines: [String], errors: String) {
        if !reachedEndOfOutput(wait: timeout) {
            kill()
            _ = reachedEndOfOutput(wait: 5)
        }
        process.waitUntilExit()
        closeInput()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, lines, errorText)
    }

    private var sawEnd = false

    private func reachedEndOfOutput(wait seconds: TimeInterval) -> Bool {
        if lock.withLock({ sawEnd }) { return true }
        guard reachedEnd.wait(timeout: .now() + seconds) == .success else { return false }
        lock.withLock { sawEnd = true }
        return true
    }

    private func append(_ chunk: Data) {
        lock.withLock {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                completeLines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
    }

    /// Runs `courier` with `arguments` over `lines` of input to the end; a convenience for short sessions.
    static func run(_ arguments: [String], input lines: [String], timeout: TimeInterval = 90) throws
        -> (status: Int32, killed: Bool, lines: [String], errors: String)
    {
        let child = try AppTestsCourierProcess(arguments: arguments)
        child.send(lines)
        child.closeInput()
        return child.finish(timeout: timeout)
    }
}
