import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one folder a test process keeps its temporary directories in, under the system's temporary directory:
/// `courier-tests.PID`. It goes when the process exits, taking whatever a test left in it; a run that crashed left
/// its folder behind, and the next run removes it (its process is gone). So a test run leaves nothing of its own in
/// the temporary directory, whatever happened to it.
enum TemporaryRoot {
    private static let prefix = "courier-tests."

    /// The folder, made (and the folders of dead runs removed) on first use.
    static let url: URL = {
        let system = FileManager.default.temporaryDirectory
        sweep(system)
        let url = system.appendingPathComponent(prefix + String(getpid()))
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TemporaryRoot.removeAtExit() }
        return url
    }()

    /// Removes the folder and everything in it, as the process exits.
    private static func removeAtExit() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes the folders of test processes that no longer run.
    private static func sweep(_ system: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: system.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid(), !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(at: system.appendingPathComponent(name))
        }
    }

    /// Whether a process `pid` exists (one of another user's counts: it cannot be signalled, but it runs).
    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
