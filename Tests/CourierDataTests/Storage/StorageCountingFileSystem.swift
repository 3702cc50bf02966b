import CourierData
import CourierDomain
import Foundation
import Synchronization

/// A real file system that counts syncs, writes and opens, and fails syncs and writes on demand.
final class StorageCountingFileSystem: FileSystem {
    private let base = PosixFileSystem()
    private let syncCount = Atomic<Int>(0)
    private let writeCount = Atomic<Int>(0)
    private let openCount = Atomic<Int>(0)
    private let failingSyncs = Atomic<Bool>(false)
    private let failingWrites = Atomic<Bool>(false)

    var syncs: Int { syncCount.load(ordering: .sequentiallyConsistent) }
    var writes: Int { writeCount.load(ordering: .sequentiallyConsistent) }
    /// How many files were opened (`open`; directory locks not counted).
    var opens: Int { openCount.load(ordering: .sequentiallyConsistent) }

    /// Makes every later sync (or write) fail with an I/O error, or work again.
    func failSyncs(_ failing: Bool) { failingSyncs.store(failing, ordering: .sequentiallyConsistent) }
    func failWrites(_ failing: Bool) { failingWrites.store(failing, ordering: .sequentiallyConsistent) }

    func open(_ path: String, create: Bool) throws -> FileSystemHandle {
        openCount.add(1, ordering: .sequentiallyConsistent)
        return try base.open(path, create: create)
    }
    func close(_ handle: FileSystemHandle) { base.close(handle) }
    func readAll(_ handle: FileSystemHandle) throws -> Data { try base.readAll(handle) }
    func write(_ data: Data, at offset: Int, to handle: FileSystemHandle) throws {
        writeCount.add(1, ordering: .sequentiallyConsistent)
        if failingWrites.load(ordering: .sequentiallyConsistent) {
            // Like a full disk: part of the bytes land, then the call fails.
            try base.write(data.prefix(data.count / 2), at: offset, to: handle)
            throw StoreError.io("write: No space left on device")
        }
        try base.write(data, at: offset, to: handle)
    }
    func sync(_ handle: FileSystemHandle) throws {
        syncCount.add(1, ordering: .sequentiallyConsistent)
        if failingSyncs.load(ordering: .sequentiallyConsistent) { throw StoreError.io("fdatasync: Input/output error") }
        try base.sync(handle)
    }
    func truncate(_ handle: FileSystemHandle, to size: Int) throws { try base.truncate(handle, to: size) }
    func size(of handle: FileSystemHandle) throws -> Int { try base.size(of: handle) }
    func tryLock(_ handle: FileSystemHandle) throws -> Bool { try base.tryLock(handle) }
    func unlock(_ handle: FileSystemHandle) throws { try base.unlock(handle) }
    func rename(_ source: String, to destination: String) throws { try base.rename(source, to: destination) }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    func createDirectory(_ path: String) throws { try base.createDirectory(path) }
    func remove(_ path: String) throws { try base.remove(path) }
    func exists(_ path: String) -> Bool { base.exists(path) }
    func lockDirectory(_ path: String) throws -> FileSystemHandle? { try base.lockDirectory(path) }
    func isCurrent(_ handle: FileSystemHandle, at path: String) -> Bool { base.isCurrent(handle, at: path) }
    func list(_ directory: String) throws -> [String] { try base.list(directory) }
}
