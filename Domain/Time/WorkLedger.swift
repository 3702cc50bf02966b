#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Counts the work of a virtual world that can run right now, so a `ManualClock` moves time only when none can.
///
/// Every task the app starts is a `TrackedWork` (started with `Clock.task`). A tracked task is runnable from the
/// moment it is created until it ends, except while it sleeps on the clock or waits for another tracked task
/// (`TrackedTask.value`, `TrackedWork.first(of:)`). Any other wait — an actor hop, a storage sync, a socket —
/// counts as runnable, because it resumes without the clock moving. When the count reaches zero, `idle()` returns:
/// the world is quiet and the only thing that can wake it is time.
public final class WorkLedger: @unchecked Sendable {
    private let lock = Lock()
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
