import Foundation

/// The one source of time. Everything that waits (backoff, timeouts, toast dismissal, TTLs, timestamp refresh,
/// stale-write cleanup) reads and sleeps on a `Clock`, so tests and scripts can move time by hand (GUIDE
/// invariant 5).
public protocol Clock: Sendable {
    /// The current instant.
    var now: Date { get }
    /// Suspends until `deadline`; throws `CancellationError` if the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

extension Clock {
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

/// Real time: `Date()` and `Task.sleep`.
public struct SystemClock: Clock {
    /// Creates the real clock.
    public init() {}
    public var now: Date { Date() }
    public func sleep(until deadline: Date) async throws {
        let interval = deadline.timeIntervalSinceNow
        if interval > 0 { try await Task.sleep(nanoseconds: UInt64(interval * 1e9)) }
        try Task.checkCancellation()
    }
}
