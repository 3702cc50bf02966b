import CourierDomain

/// One row of the conversation list.
public struct ConversationsListItem: Equatable, Sendable, Identifiable {
    /// The conversation's id.
    public var id: ConversationID
    /// The conversation's name, or the other participants' display names joined with ", ".
    public var title: String
    /// The last message: its text, or for an image its thumbnail URL (the full URL when there is no thumbnail).
    public var preview: String
    /// When the last activity was, relative to now ("Now", "5m ago", "3h ago", "Yesterday", "Oct 19").
    public var timestamp: String
    /// Messages not read yet.
    public var unreadCount: Int

    /// Creates a row.
    public init(id: ConversationID, title: String, preview: String, timestamp: String, unreadCount: Int) {
        self.id = id
        self.title = title
        self.preview = preview
        self.timestamp = timestamp
        self.unreadCount = unreadCount
    }
}
