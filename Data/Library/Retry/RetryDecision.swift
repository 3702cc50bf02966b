import CourierDomain
import CourierStore
import Foundation

/// What `RetryPolicy` says after a failed attempt.
public enum RetryDecision: Hashable, Sendable {
    /// Wait this long, then try again.
    case retry(after: Duration)
    /// Stop and report this error.
    case fail(DeliveryError)
}
