import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// One owner per store file and per data directory, and nothing acknowledged once a file is gone from under its
/// owner.
@Suite("Store ownership", .serialized, .removesTemporaryDirectories)
struct StoreOwnershipTests {
    private let directory: TemporaryDirectory
    private let sample = Message(
        id: "m-1", conversationID: "c1", senderID: "me", text: "hello", timestamp: Date(timeIntervalSince1970: 0),
        status: .queued)

    init() throws { directory = try TemporaryDirectory() }

    @Test("a second FileOutboxStore on an open directory is refused, naming the directory; after close it opens")
    func outboxSecondOpen() throws {
        let first = try FileOutboxStore(directory: directory.url)
        try first.enqueue(sample)

        #expect(throws: StoreError.locked(path: directory.url.path)) { try FileOutboxStore(directory: directory.url) }

        first.close()
        first.close()  // closing twice is harmless
        let reopened = try FileOutboxStore(directory: directory.url)
        #expect(reopened.all().map(\.id) == [sample.id])
        reopened.close()
    }

    @Test("the write queue's, the cache's and the backend's logs refuse a second open of their file too")
    func recordLogStorageSecondOpen() throws {
        let path = directory.path("writes.log")
        let first = try RecordLogStorage(path: path)
        #expect(throws: StoreError.locked(path: path)) { try RecordLogStorage(path: path) }
        let journalPath = directory.path("backend.log")
        let journal = try RecordLogBackendJournal(path: journalPath)
        #expect(throws: StoreError.locked(path: journalPath)) { try RecordLogBackendJournal(path: journalPath) }
        first.close()
        first.close()
        #expect(try RecordLogStorage(path: path).loadRecords() == [])
        _ = journal
    }

    @Test("a second open is refused on the simulated disk as well, and a crash frees the file")
    func simulatedSecondOpen() throws {
        let disk = SimulatedFileSystem()
        let simulated = URL(fileURLWithPath: "/data")
        let first = try FileOutboxStore(directory: simulated, fileSystem: disk)
        #expect(throws: StoreError.locked(path: "/data")) {
            try FileOutboxStore(directory: simulated, fileSystem: disk)
        }
        disk.crash()
        _ = try FileOutboxStore(directory: simulated, fileSystem: disk)
        _ = first
    }

    @Test("a compaction keeps the log locked: a second open is refused after it as before")
    func lockedAcrossCompaction() throws {
        let path = directory.path("cache.log")
        let storage = try RecordLogStorage(path: path)
        try storage.append([Data("a".utf8), Data("b".utf8)])
        try storage.compact(keeping: [Data("b".utf8)])
        #expect(throws: StoreError.locked(path: path)) { try RecordLogStorage(path: path) }
        storage.close()
    }

    @Test("an append to a log whose file was deleted is not acknowledged, nor is any later one")
    func deletedFile() throws {
        let store = try FileOutboxStore(directory: directory.url)
        try FileManager.default.removeItem(atPath: directory.path(FileOutboxStore.fileName))

        #expect(throws: StoreError.self) { try store.enqueue(sample) }
        #expect(store.count == 0)
        #expect(throws: StoreError.self) { try store.enqueue(sample) }
        store.close()
    }

    @Test("an append to a log whose file was replaced by another is not acknowledged")
    func replacedFile() throws {
        let path = directory.path("writes.log")
        let storage = try RecordLogStorage(path: path)
        try storage.append([Data("before".utf8)])
        try FileManager.default.removeItem(atPath: path)
        try Data().write(to: URL(fileURLWithPath: path))

        #expect(throws: StoreError.self) { try storage.append([Data("after".utf8)]) }
        storage.close()
    }

    @Test("with .lock deleted, the directory stays taken: in this process and for another one")
    func deletedLockFile() throws {
        let held = try DataDirectoryLock.acquire(directory: directory.url)
        try FileManager.default.removeItem(atPath: directory.path(".lock"))

        #expect(throws: StoreError.locked(path: directory.url.path)) {
            try DataDirectoryLock.acquire(directory: directory.url)
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") {
            #expect(try storageFlockInChildProcess(directory.url.path) == 1)
        }
        held.release()
        #expect(try DataDirectoryLock.acquire(directory: directory.url).isHeld)
    }

    @Test("a full simulated disk refuses growing writes whole, and takes them again once it has room")
    func simulatedFullDisk() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectory("/d")
        let handle = try disk.open("/d/f", create: true)
        disk.fillUp(afterWrites: 1)
        try disk.write(Data("ab".utf8), at: 0, to: handle)
        #expect(throws: StoreError.self) { try disk.write(Data("cd".utf8), at: 2, to: handle) }
        #expect(disk.isFull)
        try disk.write(Data("x".utf8), at: 0, to: handle)  // overwriting needs no room
        #expect(disk.contents(of: "/d/f") == Data("xb".utf8))
        disk.isFull = false
        try disk.write(Data("cd".utf8), at: 2, to: handle)
        #expect(disk.contents(of: "/d/f") == Data("xbcd".utf8))
    }
}
