import CourierDomain
import Foundation
import Synchronization

/// Exclusive ownership of a data directory: one process (and one owner within it) at a time (GUIDE invariant 6).
///
/// It holds an exclusive `flock` on `DIR/.lock`. The kernel releases it when the process dies, so a crash never
/// leaves a stale lock behind.
public final class DataDirectoryLock: Sendable {
    /// The directory this lock owns.
    public let directory: URL
    private let fileSystem: any FileSystem
    private let handle: Mutex<FileSystemHandle?>

    private init(directory: URL, fileSystem: any FileSystem, handle: FileSystemHandle) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.handle = Mutex(handle)
    }

    deinit { release() }

    /// Takes the lock, creating the directory when it is missing. Throws `StoreError.locked(path:)` when another
    /// owner (this process or another) holds it, `StoreError.io` when the disk fails.
    public static func acquire(
        directory: URL, fileSystem: any FileSystem = PosixFileSystem()
    ) throws -> DataDirectoryLock {
        try fileSystem.createDirectory(directory.path)
        let path = directory.appendingPathComponent(".lock").path
        // A child process forked by another thread holds a copy of every descriptor until it execs, and with it
        // our flock: a released lock can look held for that instant. A few short tries wait it out.
        for attempt in 1...lockAttempts {
            let handle = try fileSystem.open(path, create: true)
            do {
                if try fileSystem.tryLock(handle) {
                    return DataDirectoryLock(directory: directory, fileSystem: fileSystem, handle: handle)
                }
            } catch {
                fileSystem.close(handle)
                throw error
            }
            fileSystem.close(handle)
            if attempt < lockAttempts { usleep(4_000) }
        }
        throw StoreError.locked(path: directory.path)
    }

    /// Tries before a held lock is reported (4 ms apart: at most 0.1 s).
    private static let lockAttempts = 25

    /// Whether this lock is still held.
    public var isHeld: Bool { handle.withLock { $0 != nil } }

    /// Frees the directory for the next owner. Releasing twice is harmless.
    public func release() {
        let released = handle.withLock { handle -> FileSystemHandle? in
            defer { handle = nil }
            return handle
        }
        if let released { fileSystem.close(released) }
    }
}
