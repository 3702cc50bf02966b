import CourierDomain
import CourierStore
import Foundation

/// How much `MessageCache` keeps.
public struct MessageCacheLimits: Hashable, Sendable {
    /// The newest messages kept per conversation (4 pages of 50 by default); older ones are trimmed.
    public var messagesPerConversation: Int
    /// The most messages kept in all; past it, least recently used conversations are dropped whole.
    public var totalMessages: Int

    /// Creates limits; each is at least 1, and the total is at least one conversation's worth.
    public init(messagesPerConversation: Int = 200, totalMessages: Int = 5_000) {
        self.messagesPerConversation = max(1, messagesPerConversation)
        self.totalMessages = max(self.messagesPerConversation, totalMessages)
    }
}
