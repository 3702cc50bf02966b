import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Shell scripts run by `unshare -rn`: in a user and network namespace of their own, made without root, where the
/// script is root over a network only it sees (a loopback, down, and whatever it creates). The test process itself
/// never changes namespace: other tests use this machine's loopback.
enum AppTestsNamespace {
    /// What a script printed and how it ended.
    struct Outcome {
        /// Its standard output.
        var output: String
        /// Its standard error.
        var errors: String
        /// Its exit status (SIGKILL's when it ran past its time).
        var status: Int32
    }

    /// Whether `unshare -rn` works on this machine (unprivileged user namespaces are allowed).
    static let isAvailable: Bool = {
        guard let outcome = try? run("true", environment: [:], timeout: 10) else { return false }
        return outcome.status == 0
    }()

    /// Runs `script` with `sh` in a namespace of its own, with `environment` added to this process's; killed, with
    /// everything it started, after `timeout` seconds. A script must end what it starts in the background: a child
    /// left running keeps the script from being seen to end until the timeout.
    static func run(_ script: String, environment: [String: String], timeout: TimeInterval) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["unshare", "-rn", "sh", "-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are read to their end on threads of their own, so that neither can fill up and stall the child.
        let printed = AppTestsNamespaceReader(output.fileHandleForReading)
        let complained = AppTestsNamespaceReader(errors.fileHandleForReading)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            // Past its time: the script and whatever it started (its process group, which the child leads) go.
            _ = kill(-process.processIdentifier, SIGKILL)
            process.killAtOnce()
        }
        process.waitUntilExit()
        return Outcome(
            output: printed.text(waiting: 2), errors: complained.text(waiting: 2), status: process.terminationStatus)
    }
}
