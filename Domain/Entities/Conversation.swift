import Foundation

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

/// A user profile.
public struct User: Hashable, Codable, Sendable, Identifiable {
    /// Its id.
    public var id: UserID
    /// The name shown to others.
    public var displayName: String
    /// Creates a user.
    public init(id: UserID, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}

/// Whether a user is reachable right now.
public struct Presence: Hashable, Codable, Sendable {
    /// Whom it describes.
    public var userID: UserID
    /// Online now.
    public var isOnline: Bool
    /// Last time seen online.
    public var lastSeen: Date?
    /// Creates a presence record.
    public init(userID: UserID, isOnline: Bool, lastSeen: Date? = nil) {
        self.userID = userID
        self.isOnline = isOnline
        self.lastSeen = lastSeen
    }
}

/// A page of messages, newest last, as loaded by cursor.
public struct MessagePage: Hashable, Sendable {
    /// The messages, in compose order (oldest first).
    public var messages: [Message]
    /// Whether older messages exist before the first one.
    public var hasMore: Bool
    /// Creates a page.
    public init(messages: [Message], hasMore: Bool) {
        self.messages = messages
        self.hasMore = hasMore
    }
}

/// A page of the conversation list, most recent activity first.
public struct ConversationPage: Hashable, Sendable {
    /// The conversations on this page.
    public var conversations: [Conversation]
    /// Whether more conversations follow.
    public var hasMore: Bool
    /// Creates a page.
    public init(conversations: [Conversation], hasMore: Bool) {
        self.conversations = conversations
        self.hasMore = hasMore
    }
}

/// Where the conversation list continues: after this activity time and id.
public struct ConversationCursor: Hashable, Codable, Sendable {
    /// Activity time of the last conversation seen.
    public var lastActivity: Date
    /// Id of the last conversation seen.
    public var id: ConversationID
    /// Creates a cursor.
    public init(lastActivity: Date, id: ConversationID) {
        self.lastActivity = lastActivity
        self.id = id
    }
}
