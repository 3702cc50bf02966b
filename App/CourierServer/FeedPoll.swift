import CourierDomain

/// A long poll that found no event waiting (`GET /events?timeout=S`): whose feed it waits on, after which position,
/// how many events it takes and until when it may be held. The server holds it off the main actor and asks
/// `ChatRouter.answerIfReady(_:)` each time the user's feed grows, and `ChatRouter.answer(_:)` at the deadline.
public struct FeedPoll: Sendable, Equatable {
    /// The signed-in user whose feed is awaited.
    public var user: UserID
    /// The token the poll was made with: a poll whose token is revoked or expires meanwhile is answered 401.
    public var token: String
    /// The cursor asked with.
    public var after: FeedPosition
    /// The most events the answer holds.
    public var limit: Int
    /// When the poll is answered whatever waits (empty when nothing does).
    public var deadline: ContinuousClock.Instant

    /// Creates a poll.
    public init(user: UserID, token: String, after: FeedPosition, limit: Int, deadline: ContinuousClock.Instant) {
        self.user = user
        self.token = token
        self.after = after
        self.limit = limit
        self.deadline = deadline
    }
}
