#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A conversation between users.
public struct Conversation: Hashable, Codable, Sendable, Identifiable {
    /// Its id.
    public var id: ConversationID
    /// Everyone in it, the signed-in user included.
    public var participantIDs: [UserID]
    /// A name given to it (group chats); nil for a one-to-one chat, whose title is the other participant's name.
    public var name: String?
    /// The newest message, for the list's preview.
    public var lastMessage: Message?
    /// Time of the most recent activity (the newest message, or creation).
    public var lastActivity: Date
    /// Messages the signed-in user has not read.
    public var unreadCount: Int

    /// Creates a conversation.
    public init(
        id: ConversationID, participantIDs: [UserID], name: String? = nil, lastMessage: Message? = nil,
        lastActivity: Date, unreadCount: Int = 0
    ) {
        self.id = id
        self.participantIDs = participantIDs
        self.name = name
        self.lastMessage = lastMessage
        self.lastActivity = lastActivity
        self.unreadCount = unreadCount
    }
}
