import Foundation

/// A clock that moves only when told, like NIO's `EmbeddedEventLoop.advanceTime(by:)`.
///
/// Sleepers are resumed in deadline order (ties in registration order). After each wake-up the clock yields so
/// that the woken work runs — up to its next suspension — before time moves again. Keep the woken work on one
/// executor (the main actor) for runs that replay identically (GUIDE §8).
public final class ManualClock: Clock, @unchecked Sendable {
    private struct Sleeper {
        let deadline: Date
        let sequence: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current: Date
    private var sleepers: [UInt64: Sleeper] = [:]
    private var nextSequence: UInt64 = 0
    /// How many times the woken work may yield before time moves on; work on the main actor settles in a few.
    private let settleYields: Int

    /// Creates a clock standing at `start` (by default 2026-01-01T09:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_258_000), settleYields: Int = 64) {
        current = start
        self.settleYields = settleYields
    }

    public var now: Date { lock.withLock { current } }

    /// How many sleepers are waiting.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// The earliest deadline a sleeper waits for, if any.
    public var nextDeadline: Date? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    public func sleep(until deadline: Date) async throws {
        let sequence: UInt64 = lock.withLock {
            nextSequence += 1
            return nextSequence
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if Task.isCancelled { return true }
                    if deadline <= current { return true }
                    sleepers[sequence] = Sleeper(deadline: deadline, sequence: sequence, continuation: continuation)
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: sequence) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper that falls due on the way, in deadline order.
    public func advance(by duration: Duration) async {
        await advance(to: now.addingTimeInterval(duration.timeInterval))
    }

    /// Moves time forward to `target` (never backwards), waking every sleeper due on the way, in deadline order.
    public func advance(to target: Date) async {
        await settle()
        while let sleeper = popEarliest(notAfter: target) {
            sleeper.continuation.resume()
            await settle()
        }
        lock.withLock { if target > current { current = target } }
        await settle()
    }

    /// Moves time to the earliest pending deadline and wakes that sleeper (and any due with it). Returns false
    /// when nobody sleeps.
    @discardableResult
    public func advanceToNextDeadline() async -> Bool {
        guard let deadline = nextDeadline else { return false }
        await advance(to: deadline)
        return true
    }

    /// Advances from deadline to deadline until `condition` holds or nothing sleeps; returns whether it holds.
    /// `limit` bounds the virtual time this may consume.
    public func run(until condition: () -> Bool, limit: Duration = .seconds(86_400 * 30)) async -> Bool {
        let end = now.addingTimeInterval(limit.timeInterval)
        await settle()
        while !condition() {
            guard let deadline = nextDeadline, deadline <= end else { return condition() }
            await advance(to: deadline)
        }
        return true
    }

    /// Lets woken work run until it suspends again.
    public func settle() async {
        for _ in 0..<settleYields { await Task.yield() }
    }

    private func popEarliest(notAfter target: Date) -> Sleeper? {
        lock.withLock {
            guard
                let next = sleepers.values.filter({ $0.deadline <= target })
                    .min(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) })
            else { return nil }
            sleepers.removeValue(forKey: next.sequence)
            if next.deadline > current { current = next.deadline }
            return next
        }
    }
}
