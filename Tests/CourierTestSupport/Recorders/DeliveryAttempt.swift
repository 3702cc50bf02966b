import CourierDomain
import Foundation

/// A call to the backend's side a test starts on a manual clock and lets run while it moves time or changes the
/// network: what it ended with, once it ended.
@MainActor
public final class DeliveryAttempt<Value: Sendable> {
    /// What the call returned, or the delivery error it threw (any other error as `.unknown`); nil while it runs.
    public private(set) var outcome: Result<Value, DeliveryError>?
    private var task: TrackedTask<Void>?

    /// Starts `operation` as work `clock` tracks, so that time waits for it.
    public init(on clock: ManualClock, _ operation: @escaping @MainActor () async throws -> Value) {
        task = clock.task { [self] in
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = .failure(error as? DeliveryError ?? .unknown("\(error)"))
            }
        }
    }

    /// Waits for the call to end (the clock must let it).
    public func finish() async {
        await task?.value
    }
}
