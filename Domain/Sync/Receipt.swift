/// A participant's marker in a conversation: their device received (`delivered`), or they read (`read`), every
/// message up to and including `upTo`. Markers only move forward; a read marker also counts as delivered.
public struct Receipt: Hashable, Codable, Sendable {
    /// What a receipt says.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The participant's device has the messages.
        case delivered
        /// The participant has seen the messages.
        case read

        /// The status a message of someone else's reaches by this receipt.
        public var status: MessageStatus { self == .read ? .read : .delivered }
    }

    /// The conversation.
    public var conversationID: ConversationID
    /// Whose marker it is.
    public var userID: UserID
    /// Received or read.
    public var kind: Kind
    /// The newest message the marker covers, by id and compose position.
    public var upTo: MessageCursor
    /// The backend's own id for that message (`Message.serverID`), when the device holds it: a backend whose markers
    /// name its own references (a Matrix receipt names an event) marks by it, with no lookup.
    public var upToServerID: String?

    /// Creates a receipt.
    public init(
        conversationID: ConversationID, userID: UserID, kind: Kind, upTo: MessageCursor, upToServerID: String? = nil
    ) {
        self.conversationID = conversationID
        self.userID = userID
        self.kind = kind
        self.upTo = upTo
        self.upToServerID = upToServerID
    }
}
