import Foundation

/// Blocking work (a socket read with a deadline, a loop of raw connections) run on a thread of its own, its result
/// awaited: a test's or bench's blocking wait never holds a thread of Swift's cooperative pool, which has one thread
/// per core and which every other task of the process needs. Used as `Task.detached { … }.value` would be.
public struct OwnThread<Value: Sendable>: Sendable {
    private let task: Task<Value, Never>

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Value) {
        task = Task {
            await withCheckedContinuation { continuation in
                let thread = Thread { continuation.resume(returning: body()) }
                thread.name = "blocking work"
                thread.start()
            }
        }
    }

    /// What `body` returned, once it has.
    public var value: Value {
        get async { await task.value }
    }
}
