import CourierData
import CourierDomain

/// A fake backend executor that counts its calls. It answers from a script of outcomes (nil = success) and
/// succeeds once the script is spent; with a latency it sleeps on the test's clock first, so a write stays in
/// flight until the test advances time.
@MainActor
public final class WriteQueueCountingExecutor {
    private let clock: ManualClock
    /// Every write it was asked to deliver, in order.
    public private(set) var calls: [PendingWrite] = []
    /// The writes it delivered, in order.
    public private(set) var delivered: [PendingWrite] = []
    /// Outcomes of the next calls, first first: nil succeeds, an error is thrown.
    public var script: [(any Error)?] = []
    /// How long each call takes on the clock.
    public var latency: Duration?

    /// Creates an executor whose latency sleeps on `clock`.
    public init(clock: ManualClock) { self.clock = clock }

    /// The payload values delivered, in order.
    public var deliveredValues: [String] {
        delivered.compactMap { try? $0.decodePayload(WriteQueueTestSetting.self).value }
    }

    /// The executor to register with a queue.
    public nonisolated var executor: OfflineWriteQueue.Executor {
        { write in try await self.run(write) }
    }

    private func run(_ write: PendingWrite) async throws {
        calls.append(write)
        if let latency { try await clock.sleep(for: latency) }
        if !script.isEmpty, let error = script.removeFirst() { throw error }
        delivered.append(write)
    }
}
