/// What `ChatRouter.route(_:)` makes of a request: an answer to send now, or a long poll to hold.
public enum ChatRoute: Sendable, Equatable {
    /// Send this answer.
    case answer(HTTPResponse)
    /// Hold this poll until its user's feed grows or its deadline passes, then answer it
    /// with `ChatRouter.answerIfReady(_:)` or `ChatRouter.answer(_:)`.
    case hold(FeedPoll)
}
