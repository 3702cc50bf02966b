import CourierData
import CourierDomain
import Foundation

/// A setting change, the payload most tests queue.
struct WriteQueueTestSetting: Codable, Hashable, Sendable {
    var name: String
    var value: String
}

/// Connectivity a test switches by hand.
@MainActor
final class WriteQueueTestConnectivity {
    var isOnline = true
}

/// A value a task sets when it is done, read by `ManualClock.run(until:)`.
@MainActor
final class WriteQueueTestBox<Value> {
    var value: Value?
}

/// Collects every event a queue reports, in order.
final class WriteQueueEventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [WriteQueueEvent] = []

    var events: [WriteQueueEvent] { lock.withLock { recorded } }

    /// The events other than count changes: what happened to writes.
    var outcomes: [WriteQueueEvent] {
        events.filter { if case .pendingCountChanged = $0 { false } else { true } }
    }

    func record(_ event: WriteQueueEvent) { lock.withLock { recorded.append(event) } }
    func reset() { lock.withLock { recorded = [] } }
}

/// A fake backend executor that counts its calls. It answers from a script of outcomes (nil = success) and
/// succeeds once the script is spent; with a latency it sleeps on the test's clock first, so a write stays in
/// flight until the test advances time.
@MainActor
final class WriteQueueCountingExecutor {
    private let clock: ManualClock
    /// Every write it was asked to deliver, in order.
    private(set) var calls: [PendingWrite] = []
    /// The writes it delivered, in order.
    private(set) var delivered: [PendingWrite] = []
    /// Outcomes of the next calls, first first: nil succeeds, an error is thrown.
    var script: [(any Error)?] = []
    /// How long each call takes on the clock.
    var latency: Duration?

    init(clock: ManualClock) { self.clock = clock }

    /// The payload values delivered, in order.
    var deliveredValues: [String] {
        delivered.compactMap { try? $0.decodePayload(WriteQueueTestSetting.self).value }
    }

    nonisolated var executor: OfflineWriteQueue.Executor {
        { write in try await self.run(write) }
    }

    private func run(_ write: PendingWrite) async throws {
        calls.append(write)
        if let latency { try await clock.sleep(for: latency) }
        if !script.isEmpty, let error = script.removeFirst() { throw error }
        delivered.append(write)
    }
}

/// Everything a write queue test needs: one storage that every `open()` reopens (as after a kill), a manual
/// clock, switchable connectivity, a counting executor registered for `setting` and `rating`, and an event
/// recorder observing every queue opened.
@MainActor
final class WriteQueueFixture {
    let storage = InMemoryRecordStorage()
    let clock = ManualClock()
    let connectivity = WriteQueueTestConnectivity()
    let executor: WriteQueueCountingExecutor
    let events = WriteQueueEventRecorder()
    var configuration: WriteQueueConfiguration
    private let ids = IDGenerator.seeded(42)
    private var tokens: [ObservationToken] = []

    init(configuration: WriteQueueConfiguration = .standard) {
        self.configuration = configuration
        executor = WriteQueueCountingExecutor(clock: clock)
    }

    /// Opens a queue on the fixture's storage (a reopen when one was opened before).
    func open(kinds: [String] = ["setting", "rating"]) throws -> OfflineWriteQueue {
        let connectivity = connectivity
        let executor = executor.executor
        let queue = try OfflineWriteQueue(
            storage: storage, clock: clock, isOnline: { connectivity.isOnline }, configuration: configuration,
            executors: Dictionary(uniqueKeysWithValues: kinds.map { ($0, executor) }), ids: ids,
            runsOnMainActor: true)
        let events = events
        tokens.append(queue.observe { events.record($0) })
        return queue
    }

    /// Queues a `setting` write.
    @discardableResult
    func enqueue(_ queue: OfflineWriteQueue, _ value: String, key: String? = nil) async throws -> PendingWrite {
        let setting = WriteQueueTestSetting(name: key ?? "-", value: value)
        return try await queue.enqueue(kind: "setting", key: key, payload: setting)
    }

    /// Runs a sync, advancing the clock through its backoffs; nil if it did not finish.
    func syncAdvancingClock(_ queue: OfflineWriteQueue) async -> Int? {
        let result = WriteQueueTestBox<Int>()
        clock.task { result.value = await queue.syncWhenOnline() }
        _ = await clock.run(until: { result.value != nil })
        return result.value
    }

    /// The payload values of the queued writes, in delivery order.
    func queuedValues(_ queue: OfflineWriteQueue) async -> [String] {
        await queue.allWrites.compactMap { try? $0.decodePayload(WriteQueueTestSetting.self).value }
    }
}

/// A list any executor closure may append to, from any executor.
final class WriteQueueTestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var entries: [String] { lock.withLock { stored } }

    func append(_ entry: String) { lock.withLock { stored.append(entry) } }
}
