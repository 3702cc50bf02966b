import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Stale writes, coalescing, capacity and single flight.
@MainActor
@Suite struct OfflineWriteQueueLimitsTests {
    // MARK: - Stale writes

    @Test func writesOlderThanSevenDaysAreRemovedWhenTheQueueOpens() async throws {
        // Given a write from 8 days ago and one from today
        let fixture = WriteQueueFixture()
        let running = try fixture.open()
        let old = try fixture.enqueue(running, "old")
        await fixture.clock.advance(by: .seconds(8 * 86_400))
        let fresh = try fixture.enqueue(running, "fresh")

        // When the queue opens
        let queue = try fixture.open()

        // Then the old write was removed and reported, the fresh one kept — also on the next open
        #expect(queue.openReport == WriteQueueOpenReport(loaded: 1, expired: [old], skippedRecords: 0))
        #expect(queue.allWrites == [fresh])
        #expect(try fixture.open().openReport == WriteQueueOpenReport(loaded: 1, expired: [], skippedRecords: 0))
    }

    @Test func theStaleLimitIsConfigurable() async throws {
        // Given a queue whose writes go stale after an hour
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(staleAfter: .seconds(3_600)))
        let queue = try fixture.open()
        let write = try fixture.enqueue(queue, "a")

        // When 61 minutes pass and it syncs, then the write expired instead of going out
        await fixture.clock.advance(by: .seconds(61 * 60))
        #expect(await queue.syncWhenOnline() == 0)
        #expect(fixture.events.outcomes == [.expired(write)])
        #expect(fixture.executor.calls.isEmpty)
    }

    // MARK: - Coalescing

    @Test func aNewerWriteToTheSameKeyReplacesTheQueuedOne() async throws {
        // Given name "Ana", an unkeyed rating, then name "Anna"
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        try fixture.enqueue(queue, "Ana", key: "name")
        try fixture.enqueue(queue, "5")
        let newest = try fixture.enqueue(queue, "Anna", key: "name")

        // Then one name write is left, with the newest value, after the rating (durably)
        #expect(fixture.queuedValues(queue) == ["5", "Anna"])
        #expect(try fixture.open().allWrites.last == newest)

        // And a sync sends the rating, then the newest name only
        #expect(await queue.syncWhenOnline() == 2)
        #expect(fixture.executor.deliveredValues == ["5", "Anna"])
    }

    @Test func writesWithoutAKeyOrWithOtherKeysAreNeverCoalesced() async throws {
        // Given the same unkeyed payload twice, and two different keys
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        try fixture.enqueue(queue, "same")
        try fixture.enqueue(queue, "same")
        try fixture.enqueue(queue, "Ana", key: "name")
        try fixture.enqueue(queue, "70", key: "weight")

        // Then all four stay, in order
        #expect(fixture.queuedValues(queue) == ["same", "same", "Ana", "70"])
        #expect(fixture.queuedValues(try fixture.open()) == ["same", "same", "Ana", "70"])
    }

    @Test func aWriteToAKeyBeingDeliveredIsQueuedAfterIt() async throws {
        // Given name "Ana" in flight (the backend takes a second)
        let fixture = WriteQueueFixture()
        fixture.executor.latency = .seconds(1)
        let queue = try fixture.open()
        try fixture.enqueue(queue, "Ana", key: "name")
        let result = await fixture.startSync(queue)

        // When name "Anna" is queued meanwhile
        try fixture.enqueue(queue, "Anna", key: "name")
        #expect(queue.count == 2)

        // Then both go out, in order, and the newest name is the last one the backend saw
        _ = await fixture.finish(result)
        #expect(result.value == 2)
        #expect(fixture.executor.deliveredValues == ["Ana", "Anna"])
    }

    @Test func aFailedWriteReplacedDuringItsAttemptIsDroppedForTheNewerOne() async throws {
        // Given name "Ana" in flight, about to time out
        let fixture = WriteQueueFixture()
        fixture.executor.latency = .seconds(1)
        fixture.executor.script = [DeliveryError.timeout]
        let queue = try fixture.open()
        try fixture.enqueue(queue, "Ana", key: "name")
        let result = await fixture.startSync(queue)

        // When name "Anna" is queued meanwhile
        try fixture.enqueue(queue, "Anna", key: "name")
        _ = await fixture.finish(result)

        // Then "Ana" is not retried: only the newest name goes out
        #expect(result.value == 1)
        #expect(fixture.executor.calls.count == 2)
        #expect(fixture.executor.deliveredValues == ["Anna"])
        #expect(try fixture.open().count == 0)
    }

    // MARK: - Capacity

    @Test func aFullQueueRefusesNewWritesAndEvictsNothing() async throws {
        // Given a queue of capacity 3, full
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(capacity: 3))
        let queue = try fixture.open()
        for value in ["a", "b"] { try fixture.enqueue(queue, value) }
        try fixture.enqueue(queue, "Ana", key: "name")

        // When one more write is queued, then it is refused with a clear error and nothing was evicted
        #expect(throws: StoreError.capacityReached(limit: 3)) { try fixture.enqueue(queue, "d") }
        #expect(fixture.queuedValues(queue) == ["a", "b", "Ana"])
        #expect(fixture.queuedValues(try fixture.open()) == ["a", "b", "Ana"])

        // But replacing a queued write still fits, and room comes back after a sync
        try fixture.enqueue(queue, "Anna", key: "name")
        #expect(fixture.queuedValues(queue) == ["a", "b", "Anna"])
        #expect(await queue.syncWhenOnline() == 3)
        try fixture.enqueue(queue, "d")
    }

    // MARK: - Single flight

    @Test func aSecondSyncWhileOneRunsJoinsIt() async throws {
        // Given three writes and a backend that takes a second per write
        let fixture = WriteQueueFixture()
        fixture.executor.latency = .seconds(1)
        let queue = try fixture.open()
        for value in ["a", "b", "c"] { try fixture.enqueue(queue, value) }

        // When two syncs are asked for, the second while the first runs
        let first = WriteQueueTestBox<Int>()
        let second = WriteQueueTestBox<Int>()
        fixture.clock.task { first.value = await queue.syncWhenOnline() }
        await fixture.clock.idle()
        fixture.clock.task { second.value = await queue.syncWhenOnline() }
        _ = await fixture.clock.run(until: { first.value != nil && second.value != nil })

        // Then one sync ran: each write was sent once, and both callers got its count
        #expect(first.value == 3)
        #expect(second.value == 3)
        #expect(fixture.executor.calls.count == 3)

        // And a later sync is a new one
        try fixture.enqueue(queue, "d")
        #expect(await fixture.syncAdvancingClock(queue) == 1)
    }
}
