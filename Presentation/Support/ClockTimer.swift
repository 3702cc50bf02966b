import CourierDomain
import Foundation

/// One pending deadline on the injected clock (toast dismissal, the "Connected" flash, a relative-time refresh).
/// Scheduling again replaces the previous deadline, so a timer never stacks.
@MainActor
final class ClockTimer {
    private let clock: any Clock
    private var task: TrackedTask<Void>?
    private var generation = 0

    /// Creates an idle timer on `clock`.
    init(clock: any Clock) { self.clock = clock }

    /// Whether a deadline is pending.
    var isScheduled: Bool { task != nil }

    /// Calls `action` on the main actor at `deadline`, replacing any pending deadline; `nil` only cancels. A
    /// `coalescing` deadline (a display refresh) passed by a long jump of time fires once, at the end of the jump.
    func schedule(at deadline: Date?, coalescing: Bool = false, _ action: @escaping @MainActor () -> Void) {
        cancel()
        guard let deadline else { return }
        generation += 1
        let expected = generation
        let clock = clock
        task = clock.task { [weak self] in
            do {
                if coalescing {
                    try await clock.sleepCoalescing(until: deadline)
                } else {
                    try await clock.sleep(until: deadline)
                }
            } catch {
                return
            }
            // A replaced timer whose sleep had already ended must not fire.
            guard let self, self.generation == expected else { return }
            self.task = nil
            action()
        }
    }

    /// Calls `action` after `duration`, replacing any pending deadline.
    func schedule(after duration: Duration, coalescing: Bool = false, _ action: @escaping @MainActor () -> Void) {
        schedule(at: clock.now.addingTimeInterval(duration.timeInterval), coalescing: coalescing, action)
    }

    /// Drops the pending deadline, if any.
    func cancel() {
        generation += 1
        task?.cancel()
        task = nil
    }

    isolated deinit { task?.cancel() }
}
