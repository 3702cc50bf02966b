import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one folder a test process keeps its temporary directories in, under the system's temporary directory
/// (`courier-tests.PID-…`), locked (`flock`) for as long as the process runs. It goes when the process exits, taking
/// whatever a test left in it; a run that crashed left its folder behind, unlocked, and the next run removes it once
/// it has been still for ten minutes. So a test run leaves nothing of its own in the temporary directory, whatever
/// happened to it, and never touches the folder of a run still going — on this machine or in another container that
/// shares the directory.
enum TemporaryRoot {
    private static let prefix = "courier-tests."
    private static let lockName = ".lock"

    /// The folder, made and locked (and the folders of dead runs removed) on first use.
    static let url: URL = {
        let system = FileManager.default.temporaryDirectory
        sweep(system)
        let url = system.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Held until the process ends: the descriptor is never closed.
        let descriptor = open(url.appendingPathComponent(lockName).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { _ = flock(descriptor, LOCK_EX) }
        atexit { TemporaryRoot.removeAtExit() }
        return url
    }()

    /// Removes the folder and everything in it, as the process exits.
    private static func removeAtExit() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes the folders of test runs that ended without removing theirs: unlocked, and still for ten minutes (a
    /// folder being made has no lock yet).
    private static func sweep(_ system: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: system.path)) ?? []
        let stillSince = Date().addingTimeInterval(-600)
        for name in names where name.hasPrefix(prefix) {
            let folder = system.appendingPathComponent(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path)
            guard let changed = attributes?[.modificationDate] as? Date, changed < stillSince,
                isAbandoned(folder)
            else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Whether no process holds `folder`'s lock.
    private static func isAbandoned(_ folder: URL) -> Bool {
        let descriptor = open(folder.appendingPathComponent(lockName).path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }
}
