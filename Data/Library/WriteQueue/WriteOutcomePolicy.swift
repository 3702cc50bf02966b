import CourierDomain
import CourierStore

/// What the write queue does after an executor answers, branch by branch (each branch has a test in
/// `OfflineWriteQueueOutcomeTests`):
///
/// 1. **Success** — the write is removed (durably) and reported `delivered`; it counts as synced.
/// 2. **Retryable failure** (`offline`, `timeout`, `server`, `rateLimited` — never sooner than it asks),
///    anything that is not a `DeliveryError` (`unknown`), and an attempt that was `cancelled` — the write stays, its
///    attempt and error are recorded, and the same sync retries it after the waits of the queue's retry policy, on
///    the injected clock (`RetryPolicy.writeQueueRetries`: 1 s, 2 s, 4 s, `maxRetries` times at most). When this
///    sync's retries are spent the write stays queued and the sync goes on with the next write — unless the device
///    is offline, which ends the sync (nothing else could get through).
///    While online, the queue then syncs again by itself after its resync policy's wait
///    (`RetryPolicy.writeQueueResyncs`: 30 s, doubling per such sync up to 5 min): no user action or reconnect is
///    needed for the write to go on trying until it is delivered or abandoned.
/// 3. **Unauthorized** — every write stays (this one's attempt is recorded) and syncing pauses:
///    `syncWhenOnline()` does nothing until `signInRenewed()`.
/// 4. **Forbidden, validation, not found or conflict** — the backend will never take it: the write is removed and
///    reported `rejected` — never silently.
/// 5. **Too many attempts** — a write that failed `maxAttempts` times in all (10 by default) is removed and
///    reported `abandoned`, so that one poisoned write cannot retry for ever.
///
/// A write whose kind has no executor is not attempted: it stays queued and is reported `noExecutor`.
enum WriteOutcomePolicy: Hashable, Sendable {
    /// Keep the write and try again after a backoff (or in a later sync).
    case retry
    /// Keep everything and pause until sign-in is renewed.
    case pauseForSignIn
    /// Remove the write and report it rejected.
    case reject

    /// The branch for a failed attempt with `error`.
    init(after error: DeliveryError) {
        switch error.kind {
        case .offline, .unreachable, .unanswered, .timeout, .server, .rateLimited, .unknown, .cancelled: self = .retry
        case .unauthorized: self = .pauseForSignIn
        case .forbidden, .validation, .notFound, .conflict: self = .reject
        }
    }
}
