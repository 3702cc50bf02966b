import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system reports the failure of each call as a typed error: nothing is silently taken as done.
@Suite("PosixFileSystem: errors", .removesTemporaryDirectories)
struct PosixFileSystemErrorTests {
    private let fileSystem = PosixFileSystem()
    /// Never a valid descriptor, so no other test's open file can stand behind it.
    private let invalid = FileSystemHandle(rawValue: -1)

    private func isIOError(_ error: any Error, mentioning call: String) -> Bool {
        guard let error = error as? StoreError, error.code == .io, let message = error.reason else { return false }
        return message.hasPrefix(call)
    }

    @Test("a sync on a descriptor that is not open throws an I/O error naming the call")
    func syncOnBadDescriptor() {
        #expect { try fileSystem.sync(invalid) } throws: { isIOError($0, mentioning: "fdatasync") }
    }

    @Test("a sync on a descriptor that cannot be synced (a pipe) throws instead of claiming durability")
    func syncOnPipe() throws {
        // Given an open pipe: a valid descriptor that no disk stands behind
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            _ = close(ends[0])
            _ = close(ends[1])
        }
        // When it is synced, then the call's failure surfaces
        #expect { try fileSystem.sync(FileSystemHandle(rawValue: ends[1])) } throws: {
            isIOError($0, mentioning: "fdatasync")
        }
    }

    @Test("read, write, truncate, size and lock on a bad descriptor each throw an I/O error")
    func otherCallsOnBadDescriptor() {
        #expect { try fileSystem.readAll(invalid) } throws: { isIOError($0, mentioning: "fstat") }
        #expect { try fileSystem.write(Data("x".utf8), at: 0, to: invalid) } throws: {
            isIOError($0, mentioning: "write")
        }
        #expect { try fileSystem.truncate(invalid, to: 0) } throws: { isIOError($0, mentioning: "ftruncate") }
        #expect { try fileSystem.size(of: invalid) } throws: { isIOError($0, mentioning: "fstat") }
        #expect { try fileSystem.tryLock(invalid) } throws: { isIOError($0, mentioning: "flock") }
    }

    @Test("a sync of a directory that does not exist throws")
    func syncMissingDirectory() throws {
        let directory = try TemporaryDirectory()
        #expect { try fileSystem.syncDirectory(directory.path("missing")) } throws: {
            isIOError($0, mentioning: "open directory")
        }
    }
}
