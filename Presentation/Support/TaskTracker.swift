import CourierDomain

/// The async work a view model (or the app composing them) started on behalf of an input, so a driver can wait for
/// it (`isIdle`) and the owner can cancel it when it goes away. Timers are deliberately not tracked here: waiting
/// for "no work" must not mean waiting for a toast to time out.
@MainActor
public final class TaskTracker {
    private let clock: any Clock
    private var tasks: [Int: TrackedTask<Void>] = [:]
    private var nextKey = 0

    /// Creates a tracker whose tasks `clock`'s ledger counts.
    public init(clock: any Clock) { self.clock = clock }

    /// Whether no tracked work runs.
    public var isIdle: Bool { tasks.isEmpty }

    /// Runs `work` on the main actor and tracks it until it returns.
    public func run(_ work: @escaping @MainActor () async -> Void) {
        let key = nextKey
        nextKey += 1
        // The task starts only after this turn of the main actor, so it is registered before it can finish.
        tasks[key] = clock.task { [weak self] in
            await work()
            self?.tasks[key] = nil
        }
    }

    /// Sends one pending message through `outbox` (Retry, Send Now) as tracked work; a refusal (the message went
    /// meanwhile) is logged, since the input already checked what it could.
    func send(_ id: MessageID, through outbox: any MessageOutbox, logger: Logger, as action: String) {
        run {
            do {
                try await outbox.send(id)
            } catch {
                logger.log(.warning, "\(action) of \(id) refused: \(error)")
            }
        }
    }

    /// Cancels every tracked task.
    public func cancelAll() {
        for task in tasks.values { task.cancel() }
        tasks = [:]
    }

    isolated deinit { cancelAll() }
}
