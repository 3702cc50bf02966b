import CourierDomain
import Foundation

extension ManualClock {
    /// Runs `operation` as tracked work, moving time until it ends: what it ended with (see `DeliveryAttempt`) and
    /// the clock time it took.
    @MainActor
    public func drive<Value: Sendable>(_ operation: @escaping @MainActor () async throws -> Value)
        async -> (result: Result<Value, DeliveryError>, elapsed: TimeInterval)
    {
        let start = now
        let attempt = DeliveryAttempt(on: self, operation)
        _ = await run(until: { attempt.outcome != nil })
        await attempt.finish()
        return (attempt.outcome ?? .failure(.unknown("never finished")), now.timeIntervalSince(start))
    }
}
