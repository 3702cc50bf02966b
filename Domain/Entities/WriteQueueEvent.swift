#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Something that happened to the write queue, for observers: nothing leaves the queue silently.
public enum WriteQueueEvent: Hashable, Sendable {
    /// The number of queued writes changed (a badge, `writes.pending`).
    case pendingCountChanged(Int)
    /// The backend took the write; it left the queue.
    case delivered(PendingWrite)
    /// An attempt failed with a retryable error; the write stays. `retryIn` is the backoff before the next attempt
    /// of this sync, nil when this sync tries it no more.
    case attemptFailed(PendingWrite, DeliveryError, retryIn: Duration?)
    /// The backend refused the write for good (validation, not found); it left the queue.
    case rejected(PendingWrite, DeliveryError)
    /// The write failed as many times as allowed; it left the queue.
    case abandoned(PendingWrite, DeliveryError)
    /// The write was older than the stale limit (7 days by default); it left the queue.
    case expired(PendingWrite)
    /// No executor is registered for the write's kind; it stays queued.
    case noExecutor(PendingWrite)
    /// Syncing paused because sign-in expired (true) or resumed after `signInRenewed()` (false).
    case pausedForSignIn(Bool)
}
