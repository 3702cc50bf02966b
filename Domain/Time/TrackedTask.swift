#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
