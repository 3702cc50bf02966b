import CourierDomain

/// What a `FakeMessageRepository` is set up with: its script's steps, the kinds of request it expects, its replies.
extension FakeMessageRepository {
    /// What one scripted request does.
    public enum Step: Sendable, Equatable {
        /// Answers as the settings say.
        case answer
        /// Throws this error for the whole request.
        case fail(DeliveryError)
        /// Answers only after an hour on the clock: a request that hangs until its caller gives up.
        case hang
        /// A batch's answer: per message, the error it is refused with, or nil for stored.
        case batch([DeliveryError?])
    }

    /// The kinds of request a test expects.
    public struct Requests: OptionSet, Sendable {
        /// The kinds as bits.
        public let rawValue: Int

        /// Creates a set from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `send(_:)` and `sendBatch(_:)`.
        public static let sends = Requests(rawValue: 1)
        /// `messages(in:before:limit:)`.
        public static let pages = Requests(rawValue: 2)
    }

    /// How a stored message is answered.
    public enum Reply: Sendable, Equatable {
        /// With status `sent`, as most backends answer.
        case sent
        /// Exactly as it was given (a send that returns means stored, whatever the status says).
        case asGiven
    }
}
