import CourierData
import CourierDomain

/// Everything a write queue test needs: one storage that every `open()` reopens (as after a kill), a manual
/// clock, connectivity switched by hand, a counting executor registered for `setting` and `rating`, and an event
/// recorder observing every queue opened.
@MainActor
public final class WriteQueueFixture {
    /// The storage every queue opens.
    public let storage = InMemoryRecordStorage()
    /// The test's time.
    public let clock = ManualClock()
    /// The device's connectivity (online at first).
    public let connectivity = ManualConnectivity()
    /// The backend.
    public let executor: WriteQueueCountingExecutor
    /// Every event of every queue opened.
    public let events = WriteQueueEventRecorder()
    /// The limits the next `open()` uses.
    public var configuration: WriteQueueConfiguration
    /// The retries within a sync the next `open()` uses.
    public var retryPolicy: RetryPolicy
    private let ids = IDGenerator.seeded(42)
    private var tokens: [ObservationToken] = []

    /// Creates a fixture; nothing is opened yet.
    public init(configuration: WriteQueueConfiguration = .standard, retryPolicy: RetryPolicy = .writeQueueRetries) {
        self.configuration = configuration
        self.retryPolicy = retryPolicy
        executor = WriteQueueCountingExecutor(clock: clock)
    }

    /// Opens a queue on the fixture's storage (a reopen when one was opened before).
    public func open(kinds: [String] = ["setting", "rating"]) throws -> OfflineWriteQueue {
        let executor = executor.executor
        let queue = try OfflineWriteQueue(
            storage: storage, clock: clock, connectivity: connectivity, configuration: configuration,
            retryPolicy: retryPolicy, executors: Dictionary(uniqueKeysWithValues: kinds.map { ($0, executor) }),
            ids: ids)
        let events = events
        tokens.append(queue.observe { events.record($0) })
        return queue
    }

    /// Opens a queue holding the `setting` writes `values`, in order, whose backend first answers with `script`.
    public func open(holding values: [String], script: [(any Error)?]) throws -> OfflineWriteQueue {
        let queue = try open()
        try enqueue(queue, values)
        executor.script = script
        return queue
    }

    /// Queues a `setting` write.
    @discardableResult
    public func enqueue(_ queue: OfflineWriteQueue, _ value: String, key: String? = nil) throws -> PendingWrite {
        try queue.enqueue(kind: "setting", key: key, payload: WriteQueueTestSetting(name: key ?? "-", value: value))
    }

    /// Queues a `setting` write for each value, in order.
    public func enqueue(_ queue: OfflineWriteQueue, _ values: [String]) throws {
        for value in values { try enqueue(queue, value) }
    }

    /// Starts a sync and lets it run until it waits on the clock (a backoff, a slow executor); the box gets its
    /// count once `finish(_:)` (or the test) moves the clock far enough.
    public func startSync(_ queue: OfflineWriteQueue) async -> WriteQueueTestBox<Int> {
        let result = WriteQueueTestBox<Int>()
        clock.task { result.value = await queue.syncWhenOnline() }
        await clock.idle()
        return result
    }

    /// Runs the clock until the sync behind `result` is over; returns its count, nil if it did not finish.
    public func finish(_ result: WriteQueueTestBox<Int>) async -> Int? {
        _ = await clock.run(until: { result.value != nil })
        return result.value
    }

    /// Runs a sync, advancing the clock through its backoffs; nil if it did not finish.
    public func syncAdvancingClock(_ queue: OfflineWriteQueue) async -> Int? {
        await finish(await startSync(queue))
    }

    /// The payload values of the queued writes, in delivery order.
    public func queuedValues(_ queue: OfflineWriteQueue) -> [String] {
        queue.allWrites.compactMap { try? $0.decodePayload(WriteQueueTestSetting.self).value }
    }
}
