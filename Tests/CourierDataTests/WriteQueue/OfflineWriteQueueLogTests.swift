import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// What the write queue says in the log across a relaunch, in the document's words: loaded from disk, the sync
/// starting, each write synced.
@MainActor
@Suite struct OfflineWriteQueueLogTests {
    @Test func aRelaunchSaysHowManyWritesItLoadedAndTheSyncSaysWhatItSent() async throws {
        // Given three writes queued offline, and the app killed
        let fixture = WriteQueueFixture()
        fixture.connectivity.set(online: false)
        let first = try fixture.open()
        try fixture.enqueue(first, ["a", "b", "c"])

        // When it relaunches and comes back online
        let recording = RecordingLogger()
        let queue = try OfflineWriteQueue(
            storage: fixture.storage, clock: fixture.clock, connectivity: fixture.connectivity,
            executors: ["setting": fixture.executor.executor], logger: recording.logger)
        fixture.connectivity.set(online: true)
        let syncing = fixture.clock.task { await queue.syncWhenOnline() }
        _ = await fixture.clock.run(until: { syncing.work.isFinished })

        // Then the log says it loaded three writes, that a sync of three started, and each synced
        let info = recording.messages(at: .info)
        #expect(info.contains("write queue: loaded 3 writes from disk"))
        #expect(info.contains("write queue: starting sync of 3 queued writes"))
        #expect(info.filter { $0 == "write queue: synced setting" }.count == 3)
        #expect(queue.count == 0)
    }
}
