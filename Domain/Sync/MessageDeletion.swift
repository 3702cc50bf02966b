/// A message its sender deleted for everyone (from any of their devices): every participant's device forgets it — its
/// row, its place in the caches, and a copy still waiting to be sent, which is never sent again.
public struct MessageDeletion: Hashable, Codable, Sendable {
    /// The conversation the message was in.
    public var conversationID: ConversationID
    /// The deleted message.
    public var messageID: MessageID
    /// The backend's own id for it (`Message.serverID`), when the backend named it by that: a device that holds no
    /// message `messageID` finds it by this one (a Matrix redaction names an event, and a client learns which
    /// Courier id an event carries only from the event itself).
    public var serverID: String?
    /// Who deleted it: its sender.
    public var deletedBy: UserID

    /// Creates a deletion.
    public init(conversationID: ConversationID, messageID: MessageID, deletedBy: UserID, serverID: String? = nil) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.serverID = serverID
        self.deletedBy = deletedBy
    }
}
