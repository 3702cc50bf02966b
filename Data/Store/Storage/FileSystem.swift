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

/// The seam between the storage engine and the disk.
///
/// It is deliberately small and says exactly what is durable: bytes written with `write` may be lost by a crash
/// until `sync` returns for that file; a `rename` or a newly created file may be lost until `syncDirectory` returns
/// for the directory holding it. A simulated disk that drops every unsynced write at a "crash" can implement this
/// protocol and the engine stays correct. Every failure is a `StoreError.io` naming the operation and the path.
public protocol FileSystem: Sendable {
    /// Opens `path` for reading and writing, creating an empty file when `create` is true and it does not exist.
    func open(_ path: String, create: Bool) throws -> FileSystemHandle
    /// Closes the file; releases its lock, if any. Closing twice or an unknown handle is harmless.
    func close(_ handle: FileSystemHandle)
    /// The whole content of the file.
    func readAll(_ handle: FileSystemHandle) throws -> Data
    /// Writes all of `data` at `offset`, extending the file when it writes past its end. Not durable until `sync`.
    func write(_ data: Data, at offset: Int, to handle: FileSystemHandle) throws
    /// Makes the file's data, and the metadata needed to read it back (its size), durable (`fdatasync`).
    func sync(_ handle: FileSystemHandle) throws
    /// Cuts the file to `size` bytes. Not durable until `sync`.
    func truncate(_ handle: FileSystemHandle, to size: Int) throws
    /// The file's current size in bytes.
    func size(of handle: FileSystemHandle) throws -> Int
    /// Takes an exclusive lock on the open file without waiting: false when another open file holds it (in this
    /// process or another). Closing the handle releases it.
    func tryLock(_ handle: FileSystemHandle) throws -> Bool
    /// Takes an exclusive lock on the open file, waiting while another open file holds it. Closing the handle
    /// releases it (and the kernel does, when the process dies).
    func lockWaiting(_ handle: FileSystemHandle) throws
    /// Releases the lock this open file holds and keeps the file open, so that the next lock costs no `open`.
    /// Releasing a lock the file does not hold is harmless.
    func unlock(_ handle: FileSystemHandle) throws
    /// The file's bytes from `offset` to its end (empty when `offset` is at or past the end).
    func read(_ handle: FileSystemHandle, from offset: Int) throws -> Data
    /// Atomically replaces `destination` by `source` (both in one directory). Not durable until `syncDirectory`.
    func rename(_ source: String, to destination: String) throws
    /// Makes the directory's entries (created, renamed and removed files) durable.
    func syncDirectory(_ path: String) throws
    /// Creates the directory and any missing parent; succeeds when it exists already.
    func createDirectory(_ path: String) throws
    /// Removes a file. Not durable until `syncDirectory`.
    func remove(_ path: String) throws
    /// Whether a file or directory exists at `path`.
    func exists(_ path: String) -> Bool
    /// The names of the entries in a directory, sorted.
    func list(_ directory: String) throws -> [String]
    /// Takes an exclusive lock on the directory itself without waiting (not on a file in it, which could be deleted
    /// or replaced under the owner): the handle that holds it, or nil when another owner (this process or another)
    /// holds it. Closing the handle releases it.
    func lockDirectory(_ path: String) throws -> FileSystemHandle?
    /// Whether `path` still names the file open as `handle`: false once the file was removed, renamed away or
    /// replaced by another file (whatever is written through `handle` then is lost to the next reader).
    func isCurrent(_ handle: FileSystemHandle, at path: String) -> Bool
    /// The size of the file open as `handle` when `path` still names it (`isCurrent`), else nil: both in one look.
    func sizeIfCurrent(_ handle: FileSystemHandle, at path: String) -> Int?
    /// Makes an existing directory its owner's alone (`0700`) unless it is a shared one (another user's, or sticky
    /// like `/tmp`): for a data directory an older build created readable by others.
    func restrictToOwner(_ path: String) throws
    /// Refuses (`StoreError.io` saying why) a directory that others may write into — its mode grants write to its
    /// group or to everyone, or another user owns it: whoever can write there can replace the owner's files.
    func refuseSharedDirectory(_ path: String) throws
}

extension FileSystem {
    /// For a file system that cannot lock a directory: an exclusive lock on the file `.directory-lock` inside it.
    public func lockDirectory(_ path: String) throws -> FileSystemHandle? {
        try openLocked(URL(fileURLWithPath: path).appendingPathComponent(".directory-lock").path)
    }

    /// Opens `path` (creating it when missing) and takes its exclusive lock without waiting: the open handle that
    /// holds the lock, or nil — the file closed again — when another open file holds it. Closing the handle releases
    /// it.
    public func openLocked(_ path: String) throws -> FileSystemHandle? {
        let handle = try open(path, create: true)
        do {
            if try tryLock(handle) { return handle }
        } catch {
            close(handle)
            throw error
        }
        close(handle)
        return nil
    }

    /// For a file system that cannot wait on a lock: tries it every millisecond.
    public func lockWaiting(_ handle: FileSystemHandle) throws {
        while try !tryLock(handle) { usleep(1_000) }
    }

    /// For a file system that reads whole files only: reads it all and keeps the tail.
    public func read(_ handle: FileSystemHandle, from offset: Int) throws -> Data {
        let all = try readAll(handle)
        return offset < all.count ? Data(all[(all.startIndex + offset)...]) : Data()
    }

    /// For a file system without permissions: nothing to do.
    public func restrictToOwner(_ path: String) throws {}

    /// For a file system without permissions: nobody else can write anywhere.
    public func refuseSharedDirectory(_ path: String) throws {}

    /// For a file system that cannot tell files apart: a file that still exists is taken to be the same one.
    public func isCurrent(_ handle: FileSystemHandle, at path: String) -> Bool { exists(path) }

    /// `isCurrent`, then `size(of:)`.
    public func sizeIfCurrent(_ handle: FileSystemHandle, at path: String) -> Int? {
        isCurrent(handle, at: path) ? try? size(of: handle) : nil
    }
}
