import CourierData
import CourierDomain
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
        let first = try await fixture.enqueue(queue, "Ana")
        let second = try await queue.enqueue(kind: "rating", payload: ["score": 8])

        // Then both are listed, in order, with their fields, and a reopened queue has exactly the same
        #expect(await queue.count == 2)
        #expect(await queue.allWrites == [first, second])
        #expect(first.kind == "setting" && first.key == nil && first.attempts == 0 && first.lastError == nil)
        #expect(first.createdAt == fixture.clock.now)
        #expect(try first.decodePayload(WriteQueueTestSetting.self) == WriteQueueTestSetting(name: "-", value: "Ana"))
        #expect(first.id != second.id)
        let reopened = try fixture.open()
        #expect(await reopened.allWrites == [first, second])
        #expect(reopened.openReport == WriteQueueOpenReport(loaded: 2, expired: [], skippedRecords: 0))
    }

    @Test func syncWhenOnlineDeliversEveryWriteInOrderAndEmptiesTheQueue() async throws {
        // Given three queued writes
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        for value in ["a", "b", "c"] { try await fixture.enqueue(queue, value) }

        // When the queue syncs online
        let synced = await queue.syncWhenOnline()

        // Then each was delivered once, in order, and nothing is left, even after a reopen
        #expect(synced == 3)
        #expect(fixture.executor.calls.count == 3)
        #expect(fixture.executor.deliveredValues == ["a", "b", "c"])
        #expect(await queue.count == 0)
        #expect(try await fixture.open().count == 0)
        #expect(fixture.events.outcomes.count == 3)
        #expect(fixture.events.events.last == .pendingCountChanged(0))
    }

    @Test func offlineSyncDoesNothingAndKeepsEveryWrite() async throws {
        // Given two queued writes and no connection
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        try await fixture.enqueue(queue, "a")
        try await fixture.enqueue(queue, "b")
        fixture.connectivity.isOnline = false

        // When the queue syncs
        let synced = await queue.syncWhenOnline()

        // Then nothing was attempted and both wait, durably; back online they go out
        #expect(synced == 0)
        #expect(fixture.executor.calls.isEmpty)
        #expect(try await fixture.open().count == 2)
        fixture.connectivity.isOnline = true
        #expect(await queue.syncWhenOnline() == 2)
    }

    @Test func clearRemovesEveryWriteDurably() async throws {
        // Given three queued writes
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        for value in ["a", "b", "c"] { try await fixture.enqueue(queue, value) }

        // When the queue is cleared
        try await queue.clear()

        // Then it is empty, also after a reopen, and a sync delivers nothing
        #expect(await queue.count == 0)
        #expect(try await fixture.open().count == 0)
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
        try await fixture.enqueue(queue, "a")
        let result = WriteQueueTestBox<Int>()
        fixture.clock.task { result.value = await queue.syncWhenOnline() }
        await fixture.clock.idle()

        // When the queue is cleared meanwhile
        try await queue.clear()
        _ = await fixture.clock.run(until: { result.value != nil })

        // Then the attempt is not retried and nothing comes back
        #expect(result.value == 0)
        #expect(fixture.executor.calls.count == 1)
        #expect(try await fixture.open().count == 0)
    }

    @Test func badInputIsRefusedWithATypedErrorAndChangesNothing() async throws {
        // Given a queue holding one write, with payloads limited to 64 bytes
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(maxPayloadBytes: 64))
        let queue = try fixture.open()
        let kept = try await fixture.enqueue(queue, "kept")

        // When bad writes are queued, then each throws its error
        await #expect(throws: WriteQueueError.emptyKind) { try await queue.enqueue(kind: "  ", payload: 1) }
        await #expect(throws: WriteQueueError.emptyKey) {
            try await queue.enqueue(kind: "setting", key: "", payload: 1)
        }
        await #expect(throws: WriteQueueError.self) { try await queue.enqueue(kind: "setting", payload: Double.nan) }
        await #expect(throws: StoreError.recordTooLarge(bytes: 102, limit: 64)) {
            try await queue.enqueue(kind: "setting", payload: String(repeating: "x", count: 100))
        }

        // And nothing changed, durably
        #expect(await queue.allWrites == [kept])
        #expect(try await fixture.open().allWrites == [kept])
    }

    @Test func aStorageFailureRefusesTheWriteAndChangesNothing() async throws {
        // Given a queue with one write, whose storage then fails
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let kept = try await fixture.enqueue(queue, "kept")
        fixture.storage.failsWrites = true

        // When another write is queued, then it throws and nothing changed
        await #expect(throws: StoreError.io("simulated write failure")) { try await fixture.enqueue(queue, "lost") }
        await #expect(throws: StoreError.io("simulated write failure")) { try await queue.clear() }
        #expect(await queue.allWrites == [kept])
        fixture.storage.failsWrites = false
        #expect(try await fixture.open().allWrites == [kept])
    }

    @Test func aWriteWithoutAnExecutorStaysQueuedAndIsReported() async throws {
        // Given a queue with an executor for `setting` only, holding a `badge` write between two settings
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(kinds: ["setting"])
        try await fixture.enqueue(queue, "a")
        let orphan = try await queue.enqueue(kind: "badge", payload: 3)
        try await fixture.enqueue(queue, "b")

        // When the queue syncs
        let synced = await queue.syncWhenOnline()

        // Then the settings went out and the orphan stays, reported
        #expect(synced == 2)
        #expect(await queue.allWrites == [orphan])
        #expect(fixture.events.outcomes.contains(.noExecutor(orphan)))

        // And once an executor is registered where the app is composed, it goes out too
        let badges = WriteQueueTestLog()
        await queue.register(kind: "badge") { write in badges.append(write.id) }
        #expect(await queue.syncWhenOnline() == 1)
        #expect(badges.entries == [orphan.id])
    }

    @Test func writesGoOutThroughTheExecutorOfTheirKind() async throws {
        // Given executors per kind registered at composition, one replaced later
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(kinds: [])
        let seen = WriteQueueTestLog()
        await queue.register(kind: "setting") { _ in seen.append("old setting") }
        await queue.register(kind: "setting") { _ in seen.append("setting") }
        await queue.register(kind: "rating") { _ in seen.append("rating") }
        try await queue.enqueue(kind: "rating", payload: 5)
        try await fixture.enqueue(queue, "x")

        // When the queue syncs, then each write went to its kind's latest executor
        #expect(await queue.syncWhenOnline() == 2)
        #expect(seen.entries == ["rating", "setting"])
    }

    @Test func aQueueOnItsOwnExecutorWorksFromAnyTask() async throws {
        // Given a queue that does not run on the main actor
        let storage = InMemoryRecordStorage()
        let queue = try OfflineWriteQueue(storage: storage, clock: ManualClock(), isOnline: { true })
        let delivered = WriteQueueTestLog()
        await queue.register(kind: "setting") { write in delivered.append(write.id) }

        // When many tasks queue writes at once and it syncs
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { _ = try? await queue.enqueue(kind: "setting", payload: index) }
            }
        }
        let synced = await queue.syncWhenOnline()

        // Then every write was queued and delivered exactly once
        #expect(synced == 50)
        #expect(Set(delivered.entries).count == 50)
        let reopened = try OfflineWriteQueue(storage: storage, clock: ManualClock(), isOnline: { true })
        #expect(reopened.openReport.loaded == 0)
    }

    @Test func manyDeliveriesKeepTheLogSmallAndReopenable() async throws {
        // Given 10,000 writes queued and delivered
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(capacity: 10_000))
        let queue = try fixture.open()
        for index in 0..<10_000 { try await fixture.enqueue(queue, "\(index)") }

        // When they are synced
        let synced = await queue.syncWhenOnline()

        // Then all went out once, and the log was compacted rather than growing with every removal
        #expect(synced == 10_000)
        #expect(fixture.executor.calls.count == 10_000)
        #expect(fixture.storage.compactions > 0)
        #expect(fixture.storage.records.count < 200)
        #expect(try await fixture.open().count == 0)
    }

    @Test func unreadableRecordsAreSkippedAndReported() async throws {
        // Given a storage holding a write and a corrupt record
        let fixture = WriteQueueFixture()
        let write = try await fixture.enqueue(try fixture.open(), "kept")
        let future = Data(#"{"version":99,"operation":"put","id":"x"}"#.utf8)
        try fixture.storage.append([Data("not a record".utf8), future])

        // When the queue reopens, then the write is there and the bad records are reported
        let reopened = try fixture.open()
        #expect(await reopened.allWrites == [write])
        #expect(reopened.openReport.skippedRecords == 2)
    }
}
