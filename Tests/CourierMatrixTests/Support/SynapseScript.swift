import CourierTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Tests/Synapse/synapse`, the one way the package installs and runs a homeserver, run as a child process; and the
/// data directories of the servers it started for this process, killed as the process exits.
enum SynapseScript {
    /// The script, found from the package root.
    static let url = ProductBinary.packageRoot.appendingPathComponent("Tests/Synapse/synapse")

    /// Runs the script with `arguments` to its end, its output in files of `directory` (a pipe would be held open by
    /// the server it starts); what it printed on standard output, trimmed, or a `SynapseScriptError`.
    static func run(_ arguments: [String], loggingIn directory: URL) async throws -> String {
        let output = directory.appendingPathComponent("script.out")
        let errors = directory.appendingPathComponent("script.err")
        let pid = try spawn([url.path] + arguments, output: output.path, errors: errors.path)
        // Waited for by a thread of its own: Foundation's Process, run from several tests at once, could leave a
        // finished child unreaped and its termination handler never called.
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread {
                var status: Int32 = 0
                var result = waitpid(pid, &status, 0)
                while result < 0 && errno == EINTR { result = waitpid(pid, &status, 0) }
                let signal = status & 0x7f
                continuation.resume(returning: result < 0 ? -1 : signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            }.start()
        }
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let complaint = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw SynapseScriptError(arguments: arguments, status: status, errors: complaint)
        }
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `command` with standard input from /dev/null and its output in the files at `output` and `errors`
    /// (the script closes whatever else it inherits before it starts a server); its pid.
    private static func spawn(_ command: [String], output: String, errors: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The test process blocks most signals on its threads, and a child inherits the mask: Synapse would ignore
        // SIGTERM and every stop would wait for the SIGKILL. The child starts with none blocked and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let environment = ProcessInfo.processInfo.environment.map { "\($0)=\($1)" }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SynapseScriptError(arguments: command, status: -1, errors: String(cString: strerror(result)))
        }
        return pid
    }

    // MARK: - Servers of this process

    private static let started = StartedServers()

    /// Notes that a server may run on `directory` until the process exits.
    static func noteStarted(_ directory: URL) { started.add(directory) }

    /// Forgets `directory` (its server was stopped and its folder is going).
    static func noteStopped(_ directory: URL) { started.remove(directory) }

    /// The servers of the process's data directories, SIGKILLed as it exits and before its temporary folder goes
    /// (so Synapse never writes into a folder being removed); the script's watchdog covers a process that crashes.
    private final class StartedServers: @unchecked Sendable {
        private let lock = NSLock()
        private var directories: Set<URL> = []
        private var exitHandlerInstalled = false

        func add(_ directory: URL) {
            lock.withLock {
                directories.insert(directory)
                guard !exitHandlerInstalled else { return }
                exitHandlerInstalled = true
                // Registered after the temporary root's own handler, so it runs before it.
                atexit { SynapseScript.started.killAll() }
            }
        }

        func remove(_ directory: URL) { _ = lock.withLock { directories.remove(directory) } }

        func killAll() {
            for directory in lock.withLock({ directories }) {
                let pidFile = directory.appendingPathComponent("synapse.pid")
                guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
                    let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), isSynapse(pid)
                else { continue }
                kill(pid, SIGKILL)
                // Bounded: until the kernel has taken it down (a zombie no longer writes).
                for _ in 0..<200 where isSynapse(pid) { usleep(10_000) }
            }
        }

        /// Whether `pid` is a live (not zombie) Synapse: a recycled pid is never signalled.
        private func isSynapse(_ pid: pid_t) -> Bool {
            let proc = URL(fileURLWithPath: "/proc/\(pid)")
            guard let stat = try? String(contentsOf: proc.appendingPathComponent("stat"), encoding: .utf8),
                let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z",
                let command = try? Data(contentsOf: proc.appendingPathComponent("cmdline"))
            else { return false }
            return String(decoding: command, as: UTF8.self).contains("synapse.app.homeserver")
        }
    }
}
