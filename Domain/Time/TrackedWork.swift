#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One tracked task's entry in a `WorkLedger` (or in none, under the system clock): whether it has ended, and
/// who waits for it.
public final class TrackedWork: @unchecked Sendable {
    /// The tracked work the current task runs as, if any.
    @TaskLocal static var current: TrackedWork?

    /// One task waiting for the first of some works to end; resumed once.
    private final class Joiner {
        let waiter: TrackedWork?
        var continuation: CheckedContinuation<Void, Never>?
        init(waiter: TrackedWork?, continuation: CheckedContinuation<Void, Never>) {
            self.waiter = waiter
            self.continuation = continuation
        }
    }

    /// Guards every work's `finished` and `joiners`, so a wait on several works is registered atomically.
    private static let lock = Lock()

    /// The ledger that counts this work; nil under the system clock.
    let ledger: WorkLedger?
    private var finished = false
    private var joiners: [Joiner] = []

    /// Whether the work has ended.
    public var isFinished: Bool { Self.lock.withLock { finished } }

    /// Counts a new task as runnable from now on.
    public init(ledger: WorkLedger?) {
        self.ledger = ledger
        ledger?.adjust(by: 1)
    }

    /// Runs `body` as this work (sleeps and joins inside it are counted against it), then ends the work.
    public func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows
        -> T
    {
        do {
            let value = try await TrackedWork.$current.withValue(self, operation: body, isolation: isolation)
            finish()
            return value
        } catch {
            finish()
            throw error
        }
    }

    /// The work the caller runs as, when it belongs to `ledger`.
    static func current(in ledger: WorkLedger) -> TrackedWork? {
        guard let work = current, work.ledger === ledger else { return nil }
        return work
    }

    /// Returns once any of `works` has ended; the calling tracked task is not runnable meanwhile.
    public static func first(of works: [TrackedWork]) async {
        let waiter = current
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if works.isEmpty || works.contains(where: \.finished) { return true }
                let joiner = Joiner(waiter: waiter, continuation: continuation)
                for work in works { work.joiners.append(joiner) }
                waiter?.ledger?.adjust(by: -1)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Returns once this work has ended; the calling tracked task is not runnable meanwhile.
    public func join() async {
        await Self.first(of: [self])
    }

    private func finish() {
        let woken: [CheckedContinuation<Void, Never>] = Self.lock.withLock {
            finished = true
            var woken: [CheckedContinuation<Void, Never>] = []
            for joiner in joiners {
                guard let continuation = joiner.continuation else { continue }
                joiner.continuation = nil
                // The waiter becomes runnable before this work stops counting, so the ledger never reads zero
                // between the two.
                joiner.waiter?.ledger?.adjust(by: 1)
                woken.append(continuation)
            }
            joiners = []
            ledger?.adjust(by: -1)
            return woken
        }
        for continuation in woken { continuation.resume() }
    }
}
