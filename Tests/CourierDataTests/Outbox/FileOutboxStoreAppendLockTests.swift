import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// A shared outbox's append lock (`<log>.lock`) is a file each process opens once and keeps: an append costs its
/// sync, not an `open` of the lock file besides (issue 33).
@Suite("FileOutboxStore append lock", .removesTemporaryDirectories)
struct FileOutboxStoreAppendLockTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    @Test("a guest's appends open no file: the lock file opened with the log stays open between them")
    func appendsOpenNothing() throws {
        // Given a guest store on a shared outbox, opened through a file system that counts opens
        let disk = StorageCountingFileSystem()
        let guest = try FileOutboxStore(directory: directory.url, fileSystem: disk, access: .guest)
        defer { guest.close() }
        let opensAtStart = disk.opens

        // When it composes twenty messages, each durable before it returns
        for index in 0..<20 { _ = try guest.enqueueComposed(message("m\(index)", at: Double(index))) }

        // Then no file was opened for them, each was synced, and another store finds all twenty
        #expect(disk.opens == opensAtStart)
        #expect(disk.syncs >= 20)
        let owner = try FileOutboxStore(directory: directory.url, access: .owner)
        defer { owner.close() }
        #expect(owner.all().count == 20)
    }

    @Test("a lock file removed under the process is opened again from its path, and the appends still exclude")
    func aRemovedLockFileIsReopened() throws {
        // Given a guest store that has appended once, and another store on the same outbox
        let disk = StorageCountingFileSystem()
        let guest = try FileOutboxStore(directory: directory.url, fileSystem: disk, access: .guest)
        defer { guest.close() }
        _ = try guest.enqueueComposed(message("m0"))
        let lock = directory.path(FileOutboxStore.fileName + ".lock")

        // When the lock file is deleted under it and it appends again
        try FileManager.default.removeItem(atPath: lock)
        let opensBefore = disk.opens
        _ = try guest.enqueueComposed(message("m1", at: 1))

        // Then it opened the lock file anew at its path (a lock on the removed file would exclude nobody), and an
        // owner opened after it reads both messages
        #expect(disk.opens == opensBefore + 1)
        #expect(FileManager.default.fileExists(atPath: lock))
        let owner = try FileOutboxStore(directory: directory.url, access: .owner)
        defer { owner.close() }
        #expect(owner.all().map(\.id.rawValue) == ["m0", "m1"])
    }
}
