import CourierDomain
import CourierStore
import Foundation

/// One attempt made by `RetryingMessageRepository`, reported to its attempt observers as soon as it ends — so
/// that the caller can record attempt counts (`Message.attempts`) and the last error as they happen.
public struct RetryAttempt: Hashable, Sendable {
    /// The request an attempt belongs to.
    public enum Operation: Hashable, Sendable {
        /// `send` of this message.
        case send(MessageID)
        /// `sendBatch` of these messages (the ones still unanswered when the attempt started), in order.
        case sendBatch([MessageID])
        /// A page load of this conversation.
        case loadPage(ConversationID)
    }

    /// The request.
    public var operation: Operation
    /// 1 for the first attempt, 2 for the first retry, …
    public var number: Int
    /// Why it failed; nil when it succeeded.
    public var error: DeliveryError?
    /// The backoff before the next attempt, when one follows; nil when this attempt was the last.
    public var nextDelay: Duration?

    /// Creates an attempt report.
    public init(operation: Operation, number: Int, error: DeliveryError?, nextDelay: Duration?) {
        self.operation = operation
        self.number = number
        self.error = error
        self.nextDelay = nextDelay
    }
}
