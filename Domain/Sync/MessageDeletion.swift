/// A message its sender deleted for everyone (from any of their devices): every participant's device forgets it — its
/// row, its place in the caches, and a copy still waiting to be sent, which is never sent again.
public struct MessageDeletion: Hashable, Codable, Sendable {
    /// The conversation the message was in.
    public var conversationID: ConversationID
    /// The deleted message.
    public var messageID: MessageID
    /// Who deleted it: its sender.
    public var deletedBy: UserID

    /// Creates a deletion.
    public init(conversationID: ConversationID, messageID: MessageID, deletedBy: UserID) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.deletedBy = deletedBy
    }
}
