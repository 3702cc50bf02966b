#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one source of time. Everything that waits (backoff, timeouts, toast dismissal, TTLs, timestamp refresh,
/// stale-write cleanup) reads and sleeps on a `Clock`, so tests and scripts can move time by hand (docs/design.md
/// §2.5).
public protocol Clock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Suspends until `deadline`; throws `CancellationError` if the task is cancelled first.
    func sleep(until deadline: Date) async throws
    /// Suspends until `deadline` for periodic work (a relative-time refresh): when time jumps past several periods
    /// at once the sleeper wakes once, at the end of the jump, like a device waking from sleep.
    func sleepCoalescing(until deadline: Date) async throws
    /// The ledger counting the tasks started on this clock (`task(_:)`), when time is virtual; nil for real time.
    var ledger: WorkLedger? { get }
}

extension Clock {
    /// Real time has no jumps to coalesce.
    public func sleepCoalescing(until deadline: Date) async throws {
        try await sleep(until: deadline)
    }

    /// Real time moves on its own: nothing to count.
    public var ledger: WorkLedger? { nil }

    /// Starts `operation` on the main actor as a task the clock's ledger counts, so virtual time waits for it (see
    /// `WorkLedger`). Every task the app starts goes through here.
    @MainActor @discardableResult
    public func task<T: Sendable>(_ operation: @escaping @MainActor () async -> T) -> TrackedTask<T> {
        let work = TrackedWork(ledger: ledger)
        let task = Task { @MainActor in await work.run(operation) }
        return TrackedTask(task: task, work: work)
    }

    /// Starts a throwing `operation` on the main actor as counted work, for a caller outside any tracked task (a
    /// test, the driver) that awaits the plain task's result.
    @MainActor @discardableResult
    public func throwingTask<T: Sendable>(_ operation: @escaping @MainActor () async throws -> T)
        -> Task<T, any Error>
    {
        let work = TrackedWork(ledger: ledger)
        return Task { @MainActor in try await work.run(operation) }
    }

    /// Suspends for `duration`; throws `CancellationError` if the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now.addingTimeInterval(duration.timeInterval))
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    public var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
