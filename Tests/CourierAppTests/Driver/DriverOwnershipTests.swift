import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@testable import CourierApp

/// One writer per directory, and nothing acknowledged that the next launch will not find.
@Suite("Driver ownership", .serialized, .removesTemporaryDirectories)
@MainActor
struct DriverOwnershipTests {
    @Test("with .lock deleted under a running driver, a second driver on the directory is still refused")
    func deletedLockFile() async throws {
        let first = try await AppTestsDriverHarness.started()
        try FileManager.default.removeItem(at: first.directory.appendingPathComponent(".lock"))

        #expect(throws: StoreError.locked(path: first.directory.path)) {
            try AppTestsDriverHarness(directory: first.directory, fresh: false)
        }
    }

    @Test("with client/ deleted under a running driver, the next send fails and says why; nothing is acknowledged")
    func deletedClientDirectory() async throws {
        let harness = try await AppTestsDriverHarness.started()
        await harness.expectScript("open c2\nnetwork offline")
        try FileManager.default.removeItem(at: harness.directory.appendingPathComponent("client"))

        let result = await harness.execute("send lost?", number: 3)

        #expect(!result.ok)
        #expect(result.lines.last?.contains("outbox.log was deleted or replaced") == true)
        harness.close()
    }

    @Test("a full disk during a send fails the command; the message is where the next launch finds it, sent once")
    func diskFullMidSend() async throws {
        let disk = SimulatedFileSystem()
        let directory = URL(fileURLWithPath: "/data")
        let harness = try await AppTestsDriverHarness.started(directory: directory, fresh: false, fileSystem: disk)
        // A first send reserves a block of ids on disk, so the full disk below meets the outbox's writes alone.
        await harness.expectScript("open c2\nsend warm-up")
        let before = try await harness.number("server.counts.c2")
        // A full disk meets a log only where it grows: without the space written ahead of its records, every record
        // grows it. The outbox's record of the new message lands; the next write (recording the delivery) finds the
        // disk full.
        try cutSpaceAhead(of: "/data/client/outbox.log", on: disk)
        disk.fillUp(afterWrites: 1)

        let result = await harness.execute("send through a full disk", number: 3)

        #expect(!result.ok)
        #expect(result.lines.last?.contains("No space left on device") == true)
        #expect(result.lines.last?.contains("resent") == true)
        // When the disk has room again and the app relaunches, the message is delivered exactly once.
        disk.isFull = false
        await harness.expectScript("restart")
        #expect(try await harness.number("queue.count") == 0)
        #expect(try await harness.number("server.counts.c2") == before + 1)
        harness.close(keepDirectory: true)
    }

    @Test("a full disk before a send is a failed command that queues nothing")
    func diskFullBeforeSend() async throws {
        let disk = SimulatedFileSystem()
        let harness = try AppTestsDriverHarness(
            directory: URL(fileURLWithPath: "/data"), fresh: false, fileSystem: disk)
        await harness.start()
        await harness.expectScript("open c2\nnetwork offline")
        disk.isFull = true

        let result = await harness.execute("send nowhere to go", number: 3)

        #expect(!result.ok)
        #expect(result.lines.last?.contains("No space left on device") == true)
        #expect(try await harness.number("queue.count") == 0)
        harness.close(keepDirectory: true)
    }

    /// Cuts the zero-filled space a record log holds ahead of its records (as in a log written before that space).
    private func cutSpaceAhead(of path: String, on disk: SimulatedFileSystem) throws {
        let handle = try disk.open(path, create: false)
        defer { disk.close(handle) }
        let bytes = try disk.readAll(handle)
        let end = (bytes.lastIndex { $0 != 0 } ?? -1) + 1
        try disk.truncate(handle, to: end)
        try disk.sync(handle)
    }
}
