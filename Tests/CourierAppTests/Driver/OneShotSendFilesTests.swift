import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Synchronization
import Testing

@testable import CourierApp

extension AppTestsChildProcesses {
    /// What a one-shot send (an app extension's) touches in the data directory: what sending needs and nothing of
    /// the caches, the conversation list, the sync state or the demo world (issue 33).
    @Suite("One-shot send: the files it opens", .removesTemporaryDirectories)
    struct OneShotSendFilesTests {
        /// A data directory a driver has opened once (so it has an owner, caches and sync state) and closed.
        private static func preparedDirectory() throws -> URL {
            let directory = AppTestsDriverHarness.temporaryDirectory()
            let run = try AppTestsCourierProcess.run(
                ["--data-dir", directory.path, "--fresh"], input: ["open c2", "queue"])
            #expect(run.status == 0)
            return directory
        }

        @Test("a one-shot send opens only the outbox log, its lock, the id space, the owner and the settings")
        @MainActor
        func opensOnlyWhatSendingNeeds() async throws {
            // Given a data directory a driver has used, and a file system that records every file opened
            let directory = try Self.preparedDirectory()
            let filesBefore = try Self.files(in: directory)
            let disk = RecordingFileSystem()
            let options = try DriverOptions.parse(["--data-dir", directory.path, "send", "c2", "from", "a", "reply"])
            let oneShot = try #require(options.oneShot)

            // When a one-shot send composes into c2
            var printed: [String] = []
            let status = await OneShotSend.run(
                oneShot, options: options, write: { printed.append($0) }, warn: { Issue.record("warned: \($0)") },
                fileSystem: disk)

            // Then it printed the id and exited 0, opened only the outbox log, its lock (once), the id space, the
            // owner file and the settings (the virtual clock's reading), and created no file but the id space's
            #expect(status == 0)
            #expect(printed.count == 1)
            let client = directory.appendingPathComponent("client")
            let ids = WorldFiles.idSpacePath(in: directory)
            // The id space reserves a block by writing its file anew under its own lock (ids.tmp → ids).
            let expected: Set<String> = [
                client.appendingPathComponent("outbox.log").path,
                client.appendingPathComponent("outbox.log.lock").path,
                ids, ids + ".lock", ids + ".tmp",
                // Whose directory it is: a send as another user is refused.
                client.appendingPathComponent("owner").path,
                directory.appendingPathComponent("world.json").path,
            ]
            #expect(Set(disk.opened).isSubset(of: expected), "opened \(disk.opened)")
            #expect(disk.opened.filter { $0.hasSuffix("outbox.log.lock") }.count == 1)
            let created = Set(try Self.files(in: directory)).subtracting(filesBefore)
            let idFiles = [ids, ids + ".lock"].map { String($0.dropFirst(directory.path.count + 1)) }
            #expect(created.isSubset(of: Set(idFiles)), "created \(created)")

            // And the message it printed the id of is queued in c2 with its text, as a fresh open of the outbox finds it
            let store = try FileOutboxStore(directory: client, access: .guest)
            defer { store.close() }
            let queued = store.all().filter { $0.id.rawValue == printed.first }
            #expect(queued.map(\.conversationID) == [ConversationID("c2")])
            #expect(queued.map(\.text) == ["from a reply"])
        }

        @Test("a one-shot send into a conversation the world does not have exits 1 and composes nothing")
        @MainActor
        func unknownConversation() async throws {
            // Given a data directory a driver has used
            let directory = try Self.preparedDirectory()
            let outboxBefore = try Data(contentsOf: directory.appendingPathComponent("client/outbox.log"))

            // When a one-shot send names c121 (the demo world has c1 … c120), c0 and c02
            for conversation in ["c121", "c0", "c02", "x"] {
                let options = try DriverOptions.parse(["--data-dir", directory.path, "send", conversation, "hi"])
                var warnings: [String] = []
                let oneShot = try #require(options.oneShot)
                let status = await OneShotSend.run(
                    oneShot, options: options, write: { Issue.record("printed \($0)") },
                    warn: { warnings.append($0) })

                // Then each exits 1 with "no conversation", and the outbox is unchanged
                #expect(status == 1)
                #expect(warnings == ["error: no conversation \(conversation)"])
            }
            #expect(try Data(contentsOf: directory.appendingPathComponent("client/outbox.log")) == outboxBefore)
        }

        /// Every file under `directory`, relative paths, sorted.
        private static func files(in directory: URL) throws -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: directory.path)
            return (enumerator?.allObjects as? [String] ?? []).sorted()
        }
    }
}

/// The real disk, recording the path of every file opened through it.
private final class RecordingFileSystem: FileSystem {
    private let base = PosixFileSystem()
    private let paths = Mutex<[String]>([])

    /// The paths opened, in order.
    var opened: [String] { paths.withLock { $0 } }

    func open(_ path: String, create: Bool) throws -> FileSystemHandle {
        paths.withLock { $0.append(path) }
        return try base.open(path, create: create)
    }
    func close(_ handle: FileSystemHandle) { base.close(handle) }
    func readAll(_ handle: FileSystemHandle) throws -> Data { try base.readAll(handle) }
    func write(_ data: Data, at offset: Int, to handle: FileSystemHandle) throws {
        try base.write(data, at: offset, to: handle)
    }
    func sync(_ handle: FileSystemHandle) throws { try base.sync(handle) }
    func truncate(_ handle: FileSystemHandle, to size: Int) throws { try base.truncate(handle, to: size) }
    func size(of handle: FileSystemHandle) throws -> Int { try base.size(of: handle) }
    func tryLock(_ handle: FileSystemHandle) throws -> Bool { try base.tryLock(handle) }
    func lockWaiting(_ handle: FileSystemHandle) throws { try base.lockWaiting(handle) }
    func unlock(_ handle: FileSystemHandle) throws { try base.unlock(handle) }
    func read(_ handle: FileSystemHandle, from offset: Int) throws -> Data { try base.read(handle, from: offset) }
    func rename(_ source: String, to destination: String) throws { try base.rename(source, to: destination) }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    func createDirectory(_ path: String) throws { try base.createDirectory(path) }
    func remove(_ path: String) throws { try base.remove(path) }
    func exists(_ path: String) -> Bool { base.exists(path) }
    func list(_ directory: String) throws -> [String] { try base.list(directory) }
    func lockDirectory(_ path: String) throws -> FileSystemHandle? { try base.lockDirectory(path) }
    func isCurrent(_ handle: FileSystemHandle, at path: String) -> Bool { base.isCurrent(handle, at: path) }
    func restrictToOwner(_ path: String) throws { try base.restrictToOwner(path) }
}
