#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A change to the outbox, for observers.
public enum OutboxEvent: Hashable, Sendable {
    /// A message was composed or changed (status, text, attempts, error). A `sent` message has left the outbox.
    case changed(Message)
    /// The user deleted a pending message.
    case deleted(MessageID)
    /// Sending paused because sign-in expired (true) or resumed (false).
    case pausedForSignIn(Bool)
}
