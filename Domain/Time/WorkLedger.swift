import Foundation

/// Counts the work of a virtual world that can run right now, so a `ManualClock` moves time only when none can.
///
/// Every task the app starts is a `TrackedWork` (started with `Clock.task`). A tracked task is runnable from the
/// moment it is created until it ends, except while it sleeps on the clock or waits for another tracked task
/// (`TrackedTask.value`, `TrackedWork.first(of:)`). Any other wait — an actor hop, a storage sync, a socket —
/// counts as runnable, because it resumes without the clock moving. When the count reaches zero, `idle()` returns:
/// the world is quiet and the only thing that can wake it is time.
public final class WorkLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var runnable = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a ledger with nothing runnable.
    public init() {}

    /// How many tracked tasks can run now.
    public var runnableCount: Int { lock.withLock { runnable } }

    /// Returns once no tracked task can run: each has ended, sleeps on the clock or waits for another one.
    public func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if runnable == 0 { return true }
                idleWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Adds `delta` to the runnable count; waking the `idle()` waiters when it reaches zero.
    func adjust(by delta: Int) {
        guard delta != 0 else { return }
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            runnable += delta
            // Only a task counted out twice (a bare `Task {}` inheriting a tracked task's entry) could go below.
            assert(runnable >= 0, "a tracked task was counted out twice")
            runnable = max(runnable, 0)
            guard runnable == 0 else { return [] }
            defer { idleWaiters = [] }
            return idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

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
    private static let lock = NSLock()

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

/// A task started through `Clock.task`: its result, awaited through the ledger.
public struct TrackedTask<Success: Sendable>: Sendable {
    /// The underlying task.
    public let task: Task<Success, Never>
    /// Its entry in the ledger.
    public let work: TrackedWork

    /// Creates the handle of `task`, which runs as `work`.
    public init(task: Task<Success, Never>, work: TrackedWork) {
        self.task = task
        self.work = work
    }

    /// The task's result; the waiting tracked task is not runnable until it is there.
    public var value: Success {
        get async {
            await work.join()
            return await task.value
        }
    }

    /// Cancels the task.
    public func cancel() { task.cancel() }
}
