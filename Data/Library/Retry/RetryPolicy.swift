import CourierDomain
import CourierStore
import Foundation

/// When a failed request is tried again, and how long to wait first (docs/design.md §3).
///
/// The policy, branch by branch (each branch has a test in `RetryPolicyTests` / `RetryingMessageRepositoryTests`):
/// 1. **Success** — the answer is returned at once; no wait, no further attempt.
/// 2. **Permanent error** (`forbidden`, `validation`, `notFound`, `conflict`, `unknown`: `isRetryable` is false) —
///    fails at once with that error; trying again cannot help until the user changes something.
/// 3. **Sign-in error** (`unauthorized`) — fails at once, never retried: the caller pauses sending and keeps every
///    message until sign-in is renewed.
/// 4. **Device offline** (the connectivity monitor says so when an attempt fails) — fails at once with
///    `.offline`: nothing can succeed until it reconnects, so no retry budget is burnt on it.
/// 4b. **Backend unreachable** (`unreachable`: no connection to it could be made; `unanswered`: it accepted and
///    said nothing within the transport's bound) — fails at once with that error: like a device offline, a connectivity state; the client's reachability probe, not a retry
///    budget, finds out when it answers again.
/// 5. **Retryable error** (`offline` while the device still looks online, `timeout`, `server`) with retries
///    left — waits `initialDelay × multiplier^(n−1)` before retry n (1 s, 2 s, 4 s), each stretched by a seeded
///    jitter of ± `jitter` (10 %) so that many clients do not retry in step, then tries again. A `rateLimited`
///    answer waits at least the `retryAfter` it names.
/// 6. **Budget exhausted** — after `maxRetries` retries (4 attempts in all, about 1 + 2 + 4 = 7 s of waiting)
///    fails with the last attempt's error.
/// 7. **Hanging attempt** — an attempt still unanswered after `attemptTimeout` (10 s) is cancelled and counts as a
///    `.timeout` failure, which is retryable (branch 5 or 6).
/// 8. **Offline during a backoff wait** — going offline cancels the wait at once and fails with `.offline` (the
///    caller keeps the message queued and resends it with the same id later).
/// 9. **Caller cancelled** — `DeliveryError.cancelled` is thrown at once; no further attempt.
public struct RetryPolicy: Hashable, Sendable {
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// How much each wait grows over the previous one.
    public var multiplier: Double
    /// Retries after the first attempt (so at most `maxRetries + 1` attempts).
    public var maxRetries: Int
    /// The fraction by which a wait may be stretched or shortened at random (0.1 = ± 10 %).
    public var jitter: Double
    /// How long one attempt may take before it is cancelled and counted as a timeout.
    public var attemptTimeout: Duration
    /// The longest a wait may grow to, before jitter; nil lets it grow without bound.
    public var maxDelay: Duration?

    /// Creates a policy; the defaults are the product's: 1 s, 2 s, 4 s ± 10 %, 3 retries, 10 s per attempt.
    public init(
        initialDelay: Duration = .seconds(1), multiplier: Double = 2, maxRetries: Int = 3, jitter: Double = 0.1,
        attemptTimeout: Duration = .seconds(10), maxDelay: Duration? = nil
    ) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxRetries = max(0, maxRetries)
        self.jitter = min(1, max(0, jitter))
        self.attemptTimeout = attemptTimeout
        self.maxDelay = maxDelay
    }

    /// The product's policy.
    public static let standard = RetryPolicy()

    /// The wait before retry `retry` (1-based): `initialDelay × multiplier^(retry−1)`, at most `maxDelay`, scaled by
    /// `1 + jitter × (2 × unit − 1)` where `unit` in 0..<1 comes from the seeded generator.
    public func backoff(beforeRetry retry: Int, unit: Double) -> Duration {
        var base = initialDelay.timeInterval * pow(multiplier, Double(max(0, retry - 1)))
        if let maxDelay { base = min(base, maxDelay.timeInterval) }
        return .seconds(base * (1 + jitter * (2 * unit - 1)))
    }

    /// What follows a failed attempt: branches 2–6 above. `failedAttempts` counts attempts made so far (the one
    /// that just failed included); `unit` is the jitter draw, used only when a retry follows.
    public func decision(after error: DeliveryError, failedAttempts: Int, isOnline: Bool, unit: Double)
        -> RetryDecision
    {
        guard error.isRetryable else { return .fail(error) }
        guard !error.isBackendUnreachable else { return .fail(error) }
        guard isOnline else { return .fail(.offline) }
        guard failedAttempts <= maxRetries else { return .fail(error) }
        return .retry(after: max(backoff(beforeRetry: failedAttempts, unit: unit), error.retryAfter ?? .zero))
    }
}
