import CourierDomain

/// What the conversation list shows.
public struct ConversationsListState: Equatable, Sendable {
    /// The rows, most recent activity first.
    public var items: [ConversationsListItem]
    /// Whether more conversations can be loaded.
    public var hasMore: Bool
    /// Whether a page is loading.
    public var isLoading: Bool
    /// What went wrong with the last load, as the user reads it; nil when it went well.
    public var error: String?

    /// Creates a state.
    public init(
        items: [ConversationsListItem] = [], hasMore: Bool = false, isLoading: Bool = false, error: String? = nil
    ) {
        self.items = items
        self.hasMore = hasMore
        self.isLoading = isLoading
        self.error = error
    }
}

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
