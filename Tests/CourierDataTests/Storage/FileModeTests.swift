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

/// What Courier writes is its user's alone, whatever the umask: directories `0700`, files `0600`; what an older
/// build left looser is tightened when opened; a directory Courier did not make keeps its mode.
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) final class FileModeTests {
    let directory: TemporaryDirectory
    let disk = PosixFileSystem()

    init() throws { directory = try TemporaryDirectory(prefix: "courier-modes") }

    deinit { directory.remove() }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o7777
    }

    /// Runs `body` with the loosest umask, `000`, then puts the old one back.
    private func underLooseUmask<T>(_ body: () throws -> T) rethrows -> T {
        let old = umask(0)
        defer { umask(old) }
        return try body()
    }

    @Test func underUmask000NewDirectoriesAre0700AndNewFiles0600() throws {
        // When a nested directory and a file in it are made with the loosest umask
        let nested = directory.path("a/b/c")
        try underLooseUmask {
            try disk.createDirectory(nested)
            disk.close(try disk.open(nested + "/store.log", create: true))
        }

        // Then every directory made is 0700 and the file 0600
        #expect([directory.path("a"), directory.path("a/b"), nested].map(mode) == [0o700, 0o700, 0o700])
        #expect(mode(nested + "/store.log") == 0o600)
    }

    @Test func aFileAnOlderBuildLeftReadableByOthersIsTightenedWhenOpened() throws {
        // Given a store file left 0666
        let path = directory.path("outbox.log")
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        chmod(path, 0o666)

        // When it is opened, then it is 0600 and its bytes are untouched
        let handle = try disk.open(path, create: false)
        defer { disk.close(handle) }
        #expect(mode(path) == 0o600)
        #expect(try disk.readAll(handle) == Data("x".utf8))
    }

    @Test func aDataDirectoryAnOlderBuildMadeIsTightenedButAForeignOrSharedOneIsNot() throws {
        // Given an older data directory (it holds .lock) at 0755, a user's folder at 0755, a sticky shared one
        let older = directory.path("older")
        let foreign = directory.path("foreign")
        let shared = directory.path("shared")
        for path in [older, foreign, shared] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        _ = FileManager.default.createFile(atPath: older + "/.lock", contents: nil)
        _ = FileManager.default.createFile(atPath: shared + "/.lock", contents: nil)
        chmod(older, 0o755)
        chmod(foreign, 0o755)
        chmod(shared, 0o1777)

        // When each is opened as a data directory
        for path in [older, foreign] {
            try DataDirectoryLock.acquire(directory: URL(fileURLWithPath: path), fileSystem: disk).release()
        }
        #expect {
            try DataDirectoryLock.acquire(directory: URL(fileURLWithPath: shared), fileSystem: disk).release()
        } throws: { error in
            "\(error)".contains("writable by others")
        }

        // Then only Courier's own older directory became 0700; the shared one, writable by others, is refused as it is
        #expect(mode(older) == 0o700)
        #expect(mode(foreign) == 0o755)
        #expect(mode(shared) == 0o1777)
    }

    @Test func aPreMadeDirectoryWritableByOthersIsRefusedAndNothingIsWrittenInIt() throws {
        // Given a directory someone made world-writable before Courier ever ran there
        let path = directory.path("planted")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o777)

        // When it is opened as a data directory, then it is refused, saying why, its mode untouched
        #expect {
            try DataDirectoryLock.acquire(directory: URL(fileURLWithPath: path), fileSystem: disk).release()
        } throws: { error in
            "\(error)".contains("writable by others (mode 0777)")
        }
        #expect(mode(path) == 0o777)
    }

    @Test func aSymbolicLinkPlantedAtADataFileIsNeverFollowedNorItsTargetChmodded() throws {
        // Given a file of someone else's (0644) and a link to it planted where a data file will be opened
        let target = directory.path("victim")
        _ = FileManager.default.createFile(atPath: target, contents: Data("theirs".utf8))
        chmod(target, 0o644)
        let link = directory.path("outbox.log")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        // When the data file is opened, then it is refused, and the target keeps its bytes and its mode
        #expect {
            _ = try disk.open(link, create: true)
        } throws: { error in
            "\(error)".contains("symbolic link")
        }
        #expect(FileManager.default.contents(atPath: target) == Data("theirs".utf8))
        #expect(mode(target) == 0o644)
    }

    @Test func aFIFOPlantedAtADataFileIsRefusedWithoutBlocking() throws {
        // Given a named pipe where a data file will be opened
        let path = directory.path("messages.log")
        #expect(mkfifo(path, 0o600) == 0)

        // When it is opened, then it is refused at once as not a regular file
        #expect {
            _ = try disk.open(path, create: true)
        } throws: { error in
            "\(error)".contains("not a regular file")
        }
    }

    @Test func aClientAndItsKeptTokenUnderUmask000AreTheirOwnersAlone() async throws {
        // Given a client opened with the loosest umask, a queued message and a kept sign-in
        let root = directory.url.appendingPathComponent("app")
        let tokens = FileTokenStore(path: root.appendingPathComponent("token").path)
        let clock = ManualClock()
        try underLooseUmask {
            let client = try CourierClient(
                directory: root, currentUser: "me", messages: FakeMessageRepository(clock: clock),
                conversations: FakeConversationRepository(), users: FakeUserRepository(),
                connectivity: ManualConnectivity(online: false), clock: clock, ids: .seeded(3))
            defer { client.close() }
            try client.outbox.compose(text: "private", in: "c1")
            try tokens.save(SignInToken(user: "me", token: "secret", expiresAt: clock.now))
        }

        // Then every directory is 0700 and every file 0600
        let entries = try FileManager.default.subpathsOfDirectory(atPath: root.path).map { root.path + "/" + $0 }
        #expect(entries.count >= 5)
        for path in [root.path] + entries {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            #expect(mode(path) == (isDirectory.boolValue ? 0o700 : 0o600), "\(path)")
        }
        #expect(try tokens.load()?.token == "secret")
    }
}
