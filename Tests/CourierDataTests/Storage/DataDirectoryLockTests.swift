import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("DataDirectoryLock", .serialized, .removesTemporaryDirectories)
struct DataDirectoryLockTests {
    @Test("a second owner is refused with .locked until the first releases")
    func contention() throws {
        let directory = try TemporaryDirectory()
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
        let directory = try TemporaryDirectory()
        do {
            let held = try DataDirectoryLock.acquire(directory: directory.url)
            #expect(held.isHeld)
        }
        #expect(try DataDirectoryLock.acquire(directory: directory.url).isHeld)
    }

    @Test("locks on two directories do not interfere")
    func independentDirectories() throws {
        let directory = try TemporaryDirectory()
        let one = try DataDirectoryLock.acquire(directory: directory.url.appendingPathComponent("one"))
        let two = try DataDirectoryLock.acquire(directory: directory.url.appendingPathComponent("two"))
        #expect(one.isHeld && two.isHeld)
    }

    @Test(
        "another process cannot take the directory while it is held, and can after release",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock")))
    func otherProcess() throws {
        let directory = try TemporaryDirectory()
        let lockFile = directory.url.appendingPathComponent(".lock").path
        let held = try DataDirectoryLock.acquire(directory: directory.url)
        #expect(try storageFlockInChildProcess(lockFile) == 1)
        held.release()
        #expect(try storageFlockInChildProcess(lockFile) == 0)
    }

    @Test("an older build that holds only the .lock file keeps a newer one out, and lets it in once it lets go")
    func olderBuildHoldingTheLockFile() throws {
        // Given the lock file held the way builds before the directory lock held it (flock on .lock alone)
        let directory = try TemporaryDirectory()
        let lockFile = directory.url.appendingPathComponent(".lock").path
        let descriptor = open(lockFile, O_RDWR | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        // Then the directory is refused as in use, with nothing taken
        #expect(throws: StoreError.locked(path: directory.url.path)) {
            try DataDirectoryLock.acquire(directory: directory.url)
        }

        // And once the older owner lets go, it opens
        flock(descriptor, LOCK_UN)
        let lock = try DataDirectoryLock.acquire(directory: directory.url)
        #expect(lock.isHeld)
        lock.release()
    }
}
