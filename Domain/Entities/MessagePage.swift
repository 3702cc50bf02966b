#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A page of messages, newest last, as loaded by cursor.
public struct MessagePage: Hashable, Codable, Sendable {
    /// The messages, in compose order (`Message.composeOrder`: timestamp, then id), oldest first.
    public var messages: [Message]
    /// Whether older messages exist before the first one.
    public var hasMore: Bool
    /// The backend's own token for the page before this one, when it gives one: opaque, handed back as it came
    /// (`olderCursor`). Not part of the wire format: each backend's client reads it from its own answer.
    public var olderToken: String?
    /// Whether the page came from the device's cache because the backend could not be reached: it may lack what the
    /// backend got meanwhile, and a screen asks again once the backend answers. Not part of the wire format.
    public var isCached = false

    private enum CodingKeys: String, CodingKey { case messages, hasMore }

    /// Creates a page (`isCached` when a cache answered for the backend; `olderToken` the backend's token for the
    /// page before it).
    public init(messages: [Message], hasMore: Bool, isCached: Bool = false, olderToken: String? = nil) {
        self.messages = messages
        self.hasMore = hasMore
        self.isCached = isCached
        self.olderToken = olderToken
    }

    /// The same page: the same messages, `hasMore` and `isCached`; the backend's token does not count (as a cursor's
    /// does not), since it names the same place.
    public static func == (lhs: MessagePage, rhs: MessagePage) -> Bool {
        lhs.messages == rhs.messages && lhs.hasMore == rhs.hasMore && lhs.isCached == rhs.isCached
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(messages)
        hasher.combine(hasMore)
        hasher.combine(isCached)
    }

    /// Where to ask for the page before this one: its oldest message's position with the backend's token; nil when
    /// nothing is older.
    public var olderCursor: MessageCursor? {
        guard hasMore, let oldest = messages.first else { return nil }
        return MessageCursor(timestamp: oldest.timestamp, id: oldest.id, token: olderToken)
    }
}
