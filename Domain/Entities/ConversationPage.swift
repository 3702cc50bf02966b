#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A page of the conversation list, most recent activity first.
public struct ConversationPage: Hashable, Codable, Sendable {
    /// The conversations on this page.
    public var conversations: [Conversation]
    /// Whether more conversations follow.
    public var hasMore: Bool
    /// Whether the page came from the device's cache because the backend could not be reached: what it shows may be
    /// stale, and a screen asks again once the backend answers. Not part of the wire format.
    public var isCached = false

    private enum CodingKeys: String, CodingKey { case conversations, hasMore }

    /// Creates a page (`isCached` when a cache answered for the backend).
    public init(conversations: [Conversation], hasMore: Bool, isCached: Bool = false) {
        self.conversations = conversations
        self.hasMore = hasMore
        self.isCached = isCached
    }
}
