import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exclusive ownership of a data directory: one process (and one owner within it) at a time (docs/reliability.md,
/// guarantee 6).
///
/// It holds an exclusive lock on the directory itself (`FileSystem.lockDirectory`): unlike a lock file, a directory
/// cannot be deleted or replaced under its owner while it holds the owner's stores, so deleting `.lock` lets nobody
/// in. It also holds an exclusive `flock` on `DIR/.lock`, the lock earlier builds take, so they stay out too. The
/// kernel releases both when the process dies, so a crash never leaves a stale lock behind.
public final class DataDirectoryLock: @unchecked Sendable {
    /// The directory this lock owns.
    public let directory: URL
    private let fileSystem: any FileSystem
    /// Guards `handles`; an `NSLock` rather than `Synchronization.Mutex`, which needs macOS 15 / iOS 18.
    private let lock = Lock()
    private var handles: [FileSystemHandle]

    private init(directory: URL, fileSystem: any FileSystem, handles: [FileSystemHandle]) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.handles = handles
    }

    deinit { release() }

    /// Takes the lock, creating the directory when it is missing. Throws `StoreError.locked(path:)` when another
    /// owner (this process or another) holds it, `StoreError.io` when the disk fails or when others may write into
    /// the directory (`FileSystem.refuseSharedDirectory`).
    public static func acquire(
        directory: URL, fileSystem: any FileSystem = PosixFileSystem()
    ) throws -> DataDirectoryLock {
        try fileSystem.createDirectory(directory.path)
        let path = directory.appendingPathComponent(".lock").path
        // A directory an earlier build locked is a data directory it made, perhaps readable by others (`0755`):
        // it becomes its owner's alone. One that never held a lock is left as it is (a new one is `0700` already).
        let madeEarlier = fileSystem.exists(path)
        // A child process forked by another thread holds a copy of every descriptor until it execs, and with it
        // our flock: a released lock can look held for that instant. A few short tries wait it out.
        for attempt in 1...lockAttempts {
            if let held = try tryAcquire(directory: directory, lockFile: path, fileSystem: fileSystem) {
                let lock = DataDirectoryLock(directory: directory, fileSystem: fileSystem, handles: held)
                if madeEarlier { try fileSystem.restrictToOwner(directory.path) }
                // Whoever else can write into it can replace the owner's files: refused, never used as it is.
                try fileSystem.refuseSharedDirectory(directory.path)
                return lock
            }
            if attempt < lockAttempts { usleep(4_000) }
        }
        throw StoreError.locked(path: directory.path)
    }

    /// Tries before a held lock is reported (4 ms apart: at most 0.1 s).
    private static let lockAttempts = 25

    /// Both locks, or nil when either is held by another owner.
    private static func tryAcquire(
        directory: URL, lockFile: String, fileSystem: any FileSystem
    ) throws -> [FileSystemHandle]? {
        guard let directoryHandle = try fileSystem.lockDirectory(directory.path) else { return nil }
        do {
            if let fileHandle = try fileSystem.openLocked(lockFile) { return [directoryHandle, fileHandle] }
        } catch {
            fileSystem.close(directoryHandle)
            throw error
        }
        fileSystem.close(directoryHandle)
        return nil
    }

    /// Whether this lock is still held.
    public var isHeld: Bool { lock.withLock { !handles.isEmpty } }

    /// Frees the directory for the next owner. Releasing twice is harmless.
    public func release() {
        let released = lock.withLock { () -> [FileSystemHandle] in
            defer { handles = [] }
            return handles
        }
        for handle in released.reversed() { fileSystem.close(handle) }
    }
}
