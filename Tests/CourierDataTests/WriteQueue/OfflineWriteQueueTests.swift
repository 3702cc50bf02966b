import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Enqueue, sync, connectivity, clearing, executors and persistence: each operation is checked again after a
/// reopen from the same storage, as after a kill.
@MainActor
@Suite struct OfflineWriteQueueTests {
    @Test func enqueuedWritesAreDurableAndListedInOrder() async throws {
        // Given an empty queue
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()

        // When two writes are queued
        let first = try fixture.enqueue(queue, "Ana")
        let second = try queue.enqueue(kind: "rating", payload: ["score": 8])

        // Then both are listed, in order, with their fields, and a reopened queue has exactly the same
        #expect(queue.count == 2)
        #expect(queue.allWrites == [first, second])
        #expect(first.kind == "setting" && first.key == nil && first.attempts == 0 && first.lastError == nil)
        #expect(first.createdAt == fixture.clock.now)
        #expect(try first.decodePayload(WriteQueueTestSetting.self) == WriteQueueTestSetting(name: "-", value: "Ana"))
        #expect(first.id != second.id)
        let reopened = try fixture.open()
        #expect(reopened.allWrites == [first, second])
        #expect(reopened.openReport == WriteQueueOpenReport(loaded: 2, expired: [], skippedRecords: 0))
    }

    @Test func syncWhenOnlineDeliversEveryWriteInOrderAndEmptiesTheQueue() async throws {
        // Given three queued writes
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        for value in ["a", "b", "c"] { try fixture.enqueue(queue, value) }

        // When the queue syncs online
        let synced = await queue.syncWhenOnline()

        // Then each was delivered once, in order, and nothing is left, even after a reopen
        #expect(synced == 3)
        #expect(fixture.executor.calls.count == 3)
        #expect(fixture.executor.deliveredValues == ["a", "b", "c"])
        #expect(queue.count == 0)
        #expect(try fixture.open().count == 0)
        #expect(fixture.events.outcomes.count == 3)
        #expect(fixture.events.events.last == .pendingCountChanged(0))
    }

    @Test func offlineSyncDoesNothingAndKeepsEveryWrite() async throws {
        // Given two queued writes and no connection
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        try fixture.enqueue(queue, "a")
        try fixture.enqueue(queue, "b")
        fixture.connectivity.set(online: false)

        // When the queue syncs
        let synced = await queue.syncWhenOnline()

        // Then nothing was attempted and both wait, durably; back online they go out
        #expect(synced == 0)
        #expect(fixture.executor.calls.isEmpty)
        #expect(try fixture.open().count == 2)
        fixture.connectivity.set(online: true)
        #expect(await queue.syncWhenOnline() == 2)
    }

    @Test func clearRemovesEveryWriteDurably() async throws {
        // Given three queued writes
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        for value in ["a", "b", "c"] { try fixture.enqueue(queue, value) }

        // When the queue is cleared
        try queue.clear()

        // Then it is empty, also after a reopen, and a sync delivers nothing
        #expect(queue.count == 0)
        #expect(try fixture.open().count == 0)
        #expect(await queue.syncWhenOnline() == 0)
        #expect(fixture.executor.calls.isEmpty)
        #expect(fixture.events.events.last == .pendingCountChanged(0))
    }

    @Test func aWriteClearedWhileItsAttemptFailsIsNotRetried() async throws {
        // Given a write in flight that is about to time out
        let fixture = WriteQueueFixture()
        fixture.executor.latency = .seconds(1)
        fixture.executor.script = [DeliveryError.timeout]
        let queue = try fixture.open()
        try fixture.enqueue(queue, "a")
        let result = await fixture.startSync(queue)

        // When the queue is cleared meanwhile
        try queue.clear()
        _ = await fixture.finish(result)

        // Then the attempt is not retried and nothing comes back
        #expect(result.value == 0)
        #expect(fixture.executor.calls.count == 1)
        #expect(try fixture.open().count == 0)
    }

    @Test func badInputIsRefusedWithATypedErrorAndChangesNothing() async throws {
        // Given a queue holding one write, with payloads limited to 64 bytes
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(maxPayloadBytes: 64))
        let queue = try fixture.open()
        let kept = try fixture.enqueue(queue, "kept")

        // When bad writes are queued, then each throws its error
        #expect(throws: WriteQueueError.emptyKind) { try queue.enqueue(kind: "  ", payload: 1) }
        #expect(throws: WriteQueueError.emptyKey) {
            try queue.enqueue(kind: "setting", key: "", payload: 1)
        }
        #expect(throws: WriteQueueError.self) { try queue.enqueue(kind: "setting", payload: Double.nan) }
        #expect(throws: StoreError.recordTooLarge(bytes: 102, limit: 64)) {
            try queue.enqueue(kind: "setting", payload: String(repeating: "x", count: 100))
        }

        // And nothing changed, durably
        #expect(queue.allWrites == [kept])
        #expect(try fixture.open().allWrites == [kept])
    }

    @Test func aStorageFailureRefusesTheWriteAndChangesNothing() async throws {
        // Given a queue with one write, whose storage then fails
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let kept = try fixture.enqueue(queue, "kept")
        fixture.storage.failsWrites = true

        // When another write is queued, then it throws and nothing changed
        #expect(throws: StoreError.io("simulated write failure")) { try fixture.enqueue(queue, "lost") }
        #expect(throws: StoreError.io("simulated write failure")) { try queue.clear() }
        #expect(queue.allWrites == [kept])
        fixture.storage.failsWrites = false
        #expect(try fixture.open().allWrites == [kept])
    }

    @Test func aWriteWithoutAnExecutorStaysQueuedAndIsReported() async throws {
        // Given a queue with an executor for `setting` only, holding a `badge` write between two settings
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(kinds: ["setting"])
        try fixture.enqueue(queue, "a")
        let orphan = try queue.enqueue(kind: "badge", payload: 3)
        try fixture.enqueue(queue, "b")

        // When the queue syncs
        let synced = await queue.syncWhenOnline()

        // Then the settings went out and the orphan stays, reported
        #expect(synced == 2)
        #expect(queue.allWrites == [orphan])
        #expect(fixture.events.outcomes.contains(.noExecutor(orphan)))

        // And once an executor is registered where the app is composed, it goes out too
        let badges = EventLog()
        queue.register(kind: "badge") { write in badges.append(write.id) }
        #expect(await queue.syncWhenOnline() == 1)
        #expect(badges.entries == [orphan.id])
    }

    @Test func writesGoOutThroughTheExecutorOfTheirKind() async throws {
        // Given executors per kind registered at composition, one replaced later
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(kinds: [])
        let seen = EventLog()
        queue.register(kind: "setting") { _ in seen.append("old setting") }
        queue.register(kind: "setting") { _ in seen.append("setting") }
        queue.register(kind: "rating") { _ in seen.append("rating") }
        try queue.enqueue(kind: "rating", payload: 5)
        try fixture.enqueue(queue, "x")

        // When the queue syncs, then each write went to its kind's latest executor
        #expect(await queue.syncWhenOnline() == 2)
        #expect(seen.entries == ["rating", "setting"])
    }

    @Test func writesQueuedFromManyTasksAtOnceAreEachDeliveredOnce() async throws {
        // Given a queue on the main actor
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()

        // When many tasks queue writes at once and it syncs
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { @MainActor in _ = try? fixture.enqueue(queue, "\(index)") }
            }
        }
        let synced = await queue.syncWhenOnline()

        // Then every write was queued and delivered exactly once
        #expect(synced == 50)
        #expect(Set(fixture.executor.deliveredValues) == Set((0..<50).map { "\($0)" }))
        #expect(try fixture.open().openReport.loaded == 0)
    }

    @Test func manyDeliveriesKeepTheLogSmallAndReopenable() async throws {
        // Given 10,000 writes queued and delivered
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(capacity: 10_000))
        let queue = try fixture.open()
        for index in 0..<10_000 { try fixture.enqueue(queue, "\(index)") }

        // When they are synced
        let synced = await queue.syncWhenOnline()

        // Then all went out once, and the log was compacted rather than growing with every removal
        #expect(synced == 10_000)
        #expect(fixture.executor.calls.count == 10_000)
        #expect(fixture.storage.compactions > 0)
        #expect(fixture.storage.records.count < 200)
        #expect(try fixture.open().count == 0)
    }

    @Test func unreadableRecordsAreSkippedAndReported() async throws {
        // Given a storage holding a write and a corrupt record
        let fixture = WriteQueueFixture()
        let write = try fixture.enqueue(try fixture.open(), "kept")
        let future = Data(#"{"version":99,"operation":"put","id":"x"}"#.utf8)
        try fixture.storage.append([Data("not a record".utf8), future])

        // When the queue reopens, then the write is there and the bad records are reported
        let reopened = try fixture.open()
        #expect(reopened.allWrites == [write])
        #expect(reopened.openReport.skippedRecords == 2)
    }
}
