import CourierData
import CourierDomain
import Foundation
import Testing

@Suite("DataDirectoryLock", .serialized)
struct DataDirectoryLockTests {
    @Test("a second owner is refused with .locked until the first releases")
    func contention() throws {
        let directory = try StorageTemporaryDirectory()
        let dataDirectory = directory.url.appendingPathComponent("data")
        // Given one owner (the directory is created for it)
        let first = try DataDirectoryLock.acquire(directory: dataDirectory)
        #expect(first.isHeld)
        #expect(FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent(".lock").path))
        // When a second owner tries, then it is refused
        #expect(throws: StoreError.locked(path: dataDirectory.path)) {
            try DataDirectoryLock.acquire(directory: dataDirectory)
        }
        // When the first releases, then the second gets it
        first.release()
        #expect(!first.isHeld)
        let second = try DataDirectoryLock.acquire(directory: dataDirectory)
        #expect(second.isHeld)
        first.release()
        #expect(throws: StoreError.locked(path: dataDirectory.path)) {
            try DataDirectoryLock.acquire(directory: dataDirectory)
        }
    }

    @Test("a lock that goes away frees the directory")
    func releasedOnDeinit() throws {
        let directory = try StorageTemporaryDirectory()
        do {
            let held = try DataDirectoryLock.acquire(directory: directory.url)
            #expect(held.isHeld)
        }
        #expect(try DataDirectoryLock.acquire(directory: directory.url).isHeld)
    }

    @Test("locks on two directories do not interfere")
    func independentDirectories() throws {
        let directory = try StorageTemporaryDirectory()
        let one = try DataDirectoryLock.acquire(directory: directory.url.appendingPathComponent("one"))
        let two = try DataDirectoryLock.acquire(directory: directory.url.appendingPathComponent("two"))
        #expect(one.isHeld && two.isHeld)
    }

    @Test(
        "another process cannot take the directory while it is held, and can after release",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func otherProcess() throws {
        let directory = try StorageTemporaryDirectory()
        let lockFile = directory.url.appendingPathComponent(".lock").path
        let held = try DataDirectoryLock.acquire(directory: directory.url)
        #expect(try flockInChildProcess(lockFile) == 1)
        held.release()
        #expect(try flockInChildProcess(lockFile) == 0)
    }

    /// Runs `flock -n FILE true` in a child process: 0 when it got the lock, 1 when someone else holds it.
    private func flockInChildProcess(_ path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = ["-n", path, "true"]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
