import Foundation

/// A position in a conversation's compose order. Pages are defined by a cursor, never by an offset, so messages
/// arriving meanwhile shift nothing.
public struct MessageCursor: Hashable, Codable, Sendable, Comparable {
    /// Compose time of the message at this position.
    public var timestamp: Date
    /// Id of the message at this position.
    public var id: MessageID
    /// Creates a cursor.
    public init(timestamp: Date, id: MessageID) {
        self.timestamp = timestamp
        self.id = id
    }
    public static func < (lhs: MessageCursor, rhs: MessageCursor) -> Bool {
        (lhs.timestamp, lhs.id) < (rhs.timestamp, rhs.id)
    }
}
