#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A clock that moves only when told, like NIO's `EmbeddedEventLoop.advanceTime(by:)`.
///
/// Sleepers are resumed in deadline order (ties in registration order). Time moves only when no tracked work can
/// run (its `ledger` reads idle): after each wake-up the woken work runs until it ends or waits on the clock again,
/// however long that takes on a loaded machine. Keep the work on one executor (the main actor) and start it with
/// `task(_:)` for runs that replay identically (docs/reliability.md).
public final class ManualClock: Clock, @unchecked Sendable {
    private struct Sleeper {
        let deadline: Date
        let sequence: UInt64
        let coalescing: Bool
        /// The tracked task asleep here, counted runnable again when it wakes.
        let work: TrackedWork?
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = Lock()
    private var current: Date
    private var sleepers: [UInt64: Sleeper] = [:]
    private var nextSequence: UInt64 = 0

    /// Counts the work that can run; time waits for it to reach zero.
    public let ledger: WorkLedger?

    /// Creates a clock standing at `start` (by default 2026-01-01T09:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_258_000)) {
        current = start
        ledger = WorkLedger()
    }

    public var now: Date { lock.withLock { current } }

    /// How many sleepers are waiting.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// The earliest deadline a sleeper waits for, if any.
    public var nextDeadline: Date? { lock.withLock { sleepers.values.map(\.deadline).min() } }

    public func sleep(until deadline: Date) async throws {
        try await sleep(until: deadline, coalescing: false)
    }

    public func sleepCoalescing(until deadline: Date) async throws {
        try await sleep(until: deadline, coalescing: true)
    }

    private func sleep(until deadline: Date, coalescing: Bool) async throws {
        let sequence: UInt64 = lock.withLock {
            nextSequence += 1
            return nextSequence
        }
        let work = ledger.flatMap { TrackedWork.current(in: $0) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if Task.isCancelled { return true }
                    if deadline <= current { return true }
                    sleepers[sequence] = Sleeper(
                        deadline: deadline, sequence: sequence, coalescing: coalescing, work: work,
                        continuation: continuation)
                    work?.ledger?.adjust(by: -1)
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
            sleeper?.work?.ledger?.adjust(by: 1)
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once no tracked work can run: everything started has ended or waits on the clock.
    public func idle() async {
        await ledger?.idle()
    }

    /// Moves time forward by `duration`, waking every sleeper that falls due on the way, in deadline order.
    public func advance(by duration: Duration) async {
        await advance(to: now.addingTimeInterval(duration.timeInterval))
    }

    /// Moves time forward to `target` (never backwards), waking every sleeper due on the way, in deadline order,
    /// each at its deadline. Coalescing sleepers due on the way wake once, at `target`.
    public func advance(to target: Date) async {
        await idle()
        while let sleeper = popEarliest(notAfter: target, coalescing: false) {
            wake(sleeper)
            await idle()
        }
        lock.withLock { if target > current { current = target } }
        while let sleeper = popEarliest(notAfter: target, coalescing: true) {
            wake(sleeper)
            await idle()
        }
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
        await idle()
        while !condition() {
            guard let deadline = nextDeadline, deadline <= end else { return condition() }
            await advance(to: deadline)
        }
        return true
    }

    private func wake(_ sleeper: Sleeper) {
        sleeper.work?.ledger?.adjust(by: 1)
        sleeper.continuation.resume()
    }

    /// The earliest sleeper of the kind due by `target`, removed; a regular one moves time to its deadline.
    private func popEarliest(notAfter target: Date, coalescing: Bool) -> Sleeper? {
        lock.withLock {
            var next: Sleeper?
            for sleeper in sleepers.values where sleeper.coalescing == coalescing && sleeper.deadline <= target {
                if let best = next, (best.deadline, best.sequence) <= (sleeper.deadline, sleeper.sequence) { continue }
                next = sleeper
            }
            guard let next else { return nil }
            sleepers.removeValue(forKey: next.sequence)
            if next.deadline > current { current = next.deadline }
            return next
        }
    }
}
