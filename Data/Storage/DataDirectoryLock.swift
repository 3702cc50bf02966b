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
        let handle = try fileSystem.open(directory.appendingPathComponent(".lock").path, create: true)
        let acquired: Bool
        do {
            acquired = try fileSystem.tryLock(handle)
        } catch {
            fileSystem.close(handle)
            throw error
        }
        guard acquired else {
            fileSystem.close(handle)
            throw StoreError.locked(path: directory.path)
        }
        return DataDirectoryLock(directory: directory, fileSystem: fileSystem, handle: handle)
    }

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
