import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run to its end in a process of its own, for what only a separate process can tell: its peak memory.
/// Started with `posix_spawn` and reaped with `wait4`, whose resource usage is that one child's alone (unlike
/// `getrusage(RUSAGE_CHILDREN)`, which keeps the largest peak of every child ever waited for).
struct ChildProcess {
    /// How a run ended.
    struct Outcome {
        /// The exit status (128 + the signal when a signal ended it).
        var status: Int32
        /// The child's peak resident set size, in bytes.
        var peakBytes: Int
        /// What it wrote to standard output.
        var output: String
    }

    let executable: URL
    let arguments: [String]

    /// Runs the program and waits for it; standard error is passed through. Throws `BenchFailure` when it cannot
    /// start.
    func run() throws -> Outcome {
        let outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-bench-child-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable.path] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable.path, &actions, nil, argv + [nil], environ)
        guard started == 0 else { throw BenchFailure("could not start \(executable.path): error \(started)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchFailure("waiting for \(executable.path) failed: errno \(errno)") }
        }
        let signal = status & 0x7f
        let exit = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        // Linux reports kilobytes, macOS bytes.
        #if os(Linux)
            let peak = Int(usage.ru_maxrss) * 1_024
        #else
            let peak = Int(usage.ru_maxrss)
        #endif
        return Outcome(status: exit, peakBytes: peak, output: output)
    }
}
