import Foundation

/// A page of messages, newest last, as loaded by cursor.
public struct MessagePage: Hashable, Codable, Sendable {
    /// The messages, in compose order (`Message.composeOrder`: timestamp, then id), oldest first.
    public var messages: [Message]
    /// Whether older messages exist before the first one.
    public var hasMore: Bool
    /// Whether the page came from the device's cache because the backend could not be reached: it may lack what the
    /// backend got meanwhile, and a screen asks again once the backend answers. Not part of the wire format.
    public var isCached = false

    private enum CodingKeys: String, CodingKey { case messages, hasMore }

    /// Creates a page (`isCached` when a cache answered for the backend).
    public init(messages: [Message], hasMore: Bool, isCached: Bool = false) {
        self.messages = messages
        self.hasMore = hasMore
        self.isCached = isCached
    }
}
