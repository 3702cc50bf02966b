import Foundation

/// A page of the conversation list, most recent activity first.
public struct ConversationPage: Hashable, Codable, Sendable {
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
