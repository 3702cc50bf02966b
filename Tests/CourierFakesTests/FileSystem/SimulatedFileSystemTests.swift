import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@Suite("SimulatedFileSystem")
struct SimulatedFileSystemTests {
    private let fs = SimulatedFileSystem()

    private func bytes(_ text: String) -> Data { Data(text.utf8) }

    /// A synced, named file `/d/name` holding `text`.
    private func durableFile(_ name: String, _ text: String) throws {
        try fs.createDirectory("/d")
        try fs.writeSynced("/d/\(name)", text)
        try fs.syncDirectory("/d")
    }

    // MARK: - Durability of data

    @Test("a power cut keeps synced bytes and drops the writes made after the last sync")
    func unsyncedWritesAreLost() throws {
        // Given a durable file with more bytes written but not synced
        try durableFile("f", "kept")
        let handle = try fs.open("/d/f", create: false)
        try fs.write(bytes(" lost"), at: 4, to: handle)
        #expect(fs.contents(of: "/d/f") == bytes("kept lost"))
        // When the power is cut
        let crash = fs.crash()
        // Then only the synced content is left, and the handle is gone
        #expect(fs.contents(of: "/d/f") == bytes("kept"))
        #expect(crash.changesLost == 1)
        #expect(fs.openHandleCount == 0)
        #expect(throws: StoreError.self) { try fs.readAll(handle) }
    }

    @Test("a truncation is lost with the power unless synced")
    func truncationNeedsSync() throws {
        try durableFile("f", "0123456789")
        let handle = try fs.open("/d/f", create: false)
        try fs.truncate(handle, to: 3)
        #expect(try fs.size(of: handle) == 3)
        fs.crash()
        #expect(fs.contents(of: "/d/f") == bytes("0123456789"))
    }

    // MARK: - Durability of names

    @Test("a new file whose data was synced vanishes at a crash until its directory is synced")
    func creationNeedsDirectorySync() throws {
        try fs.createDirectory("/d")
        try fs.writeSynced("/d/new", "data")
        #expect(fs.exists("/d/new"))
        #expect(fs.durableContents(of: "/d/new") == nil)
        fs.crash()
        #expect(!fs.exists("/d/new"))
        #expect(fs.exists("/d"))
    }

    @Test("a rename comes undone at a crash unless the directory was synced after it")
    func renameNeedsDirectorySync() throws {
        // Given an old file and a synced replacement renamed over it
        try durableFile("settings", "old")
        try fs.writeSynced("/d/settings.tmp", "new")
        try fs.rename("/d/settings.tmp", to: "/d/settings")
        #expect(fs.contents(of: "/d/settings") == bytes("new"))
        // When the power is cut before the directory sync
        let crash = fs.crash()
        // Then the old file is back and the temporary never existed
        #expect(fs.contents(of: "/d/settings") == bytes("old"))
        #expect(!fs.exists("/d/settings.tmp"))
        #expect(crash.entriesReverted == 1)
        // And after a rename followed by a directory sync, the new file stays
        try fs.writeSynced("/d/settings.tmp", "new")
        try fs.rename("/d/settings.tmp", to: "/d/settings")
        try fs.syncDirectory("/d")
        fs.crash()
        #expect(fs.contents(of: "/d/settings") == bytes("new"))
        #expect(try fs.list("/d") == ["settings"])
    }

    @Test("a removal comes undone at a crash unless the directory was synced after it")
    func removalNeedsDirectorySync() throws {
        try durableFile("f", "still here")
        try fs.remove("/d/f")
        #expect(!fs.exists("/d/f"))
        fs.crash()
        #expect(fs.contents(of: "/d/f") == bytes("still here"))
        try fs.remove("/d/f")
        try fs.syncDirectory("/d")
        fs.crash()
        #expect(!fs.exists("/d/f"))
    }

    // MARK: - Locks and handles

    @Test("one open file holds the lock; closing it or a crash frees it")
    func locks() throws {
        try fs.createDirectory("/d")
        let first = try fs.open("/d/.lock", create: true)
        let second = try fs.open("/d/.lock", create: true)
        #expect(try fs.tryLock(first))
        #expect(try !fs.tryLock(second))
        fs.close(first)
        #expect(try fs.tryLock(second))
        fs.crash()
        let third = try fs.open("/d/.lock", create: true)
        #expect(try fs.tryLock(third))
        #expect(third.rawValue > second.rawValue)
    }

    @Test("the data directory lock refuses a second owner on the simulated disk")
    func directoryLock() throws {
        let directory = URL(fileURLWithPath: "/data")
        let held = try DataDirectoryLock.acquire(directory: directory, fileSystem: fs)
        #expect(throws: StoreError.locked(path: "/data")) {
            try DataDirectoryLock.acquire(directory: directory, fileSystem: fs)
        }
        held.release()
        #expect(try DataDirectoryLock.acquire(directory: directory, fileSystem: fs).isHeld)
    }

    // MARK: - Bad input

    @Test("missing files and directories are typed errors that change nothing")
    func badInput() throws {
        #expect(throws: StoreError.self) { try fs.open("/nowhere/f", create: true) }
        #expect(throws: StoreError.self) { try fs.open("/f", create: false) }
        #expect(throws: StoreError.self) { try fs.remove("/f") }
        #expect(throws: StoreError.self) { try fs.rename("/f", to: "/g") }
        #expect(throws: StoreError.self) { try fs.list("/nowhere") }
        #expect(try fs.list("/").isEmpty)
    }

    // MARK: - Power cuts mid-work

    @Test("a scheduled power cut fails the operation past the budget and every later one until the crash")
    func scheduledPowerCut() throws {
        try durableFile("f", "a")
        let handle = try fs.open("/d/f", create: false)
        fs.cutPower(afterOperations: 1)
        try fs.write(bytes("b"), at: 1, to: handle)
        #expect(throws: StoreError.self) { try fs.sync(handle) }
        #expect(fs.isPoweredOff)
        #expect(throws: StoreError.self) { try fs.readAll(handle) }
        fs.crash()
        #expect(!fs.isPoweredOff)
        #expect(fs.contents(of: "/d/f") == bytes("a"))
    }
}
