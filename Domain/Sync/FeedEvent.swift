/// One thing that happened that a user should hear of, at its place in that user's feed.
public struct FeedEvent: Hashable, Codable, Sendable {
    /// What happened.
    public enum Change: Hashable, Codable, Sendable {
        /// A message was stored: someone else's, or the user's own (from this device — its echo — or another one).
        case message(Message)
        /// A participant's delivered or read marker moved (the user's own too, from another device).
        case receipt(Receipt)
        /// A conversation the user is in was created or changed (its name, its participants).
        case conversation(Conversation)
        /// A message was deleted by its sender, for everyone (the user's own too, from another device).
        case deletion(MessageDeletion)
    }

    /// Where it stands in the feed; strictly above every earlier event's.
    public var position: FeedPosition
    /// What happened.
    public var change: Change

    /// Creates an event.
    public init(position: FeedPosition, change: Change) {
        self.position = position
        self.change = change
    }

    /// The conversation the event is about.
    public var conversationID: ConversationID {
        switch change {
        case .message(let message): message.conversationID
        case .receipt(let receipt): receipt.conversationID
        case .conversation(let conversation): conversation.id
        case .deletion(let deletion): deletion.conversationID
        }
    }
}
