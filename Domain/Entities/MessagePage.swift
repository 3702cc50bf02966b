import Foundation

/// A page of messages, newest last, as loaded by cursor.
public struct MessagePage: Hashable, Codable, Sendable {
    /// The messages, in compose order (`Message.composeOrder`: timestamp, then id), oldest first.
    public var messages: [Message]
    /// Whether older messages exist before the first one.
    public var hasMore: Bool
    /// Creates a page.
    public init(messages: [Message], hasMore: Bool) {
        self.messages = messages
        self.hasMore = hasMore
    }
}
