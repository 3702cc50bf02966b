import CourierDomain

/// Counts the work the app layer starts (page loads, syncs), so the driver knows when a command is done.
@MainActor
public final class WorkTracker {
    /// How many tracked tasks are running.
    public private(set) var running = 0
    private let clock: any Clock

    /// Creates an idle tracker whose tasks `clock`'s ledger counts.
    public init(clock: any Clock) { self.clock = clock }

    /// Starts `work` and counts it until it ends.
    public func start(_ work: @escaping @MainActor () async -> Void) {
        running += 1
        clock.task {
            await work()
            self.running -= 1
        }
    }
}
