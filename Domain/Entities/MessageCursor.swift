import Foundation

/// A position in a conversation's compose order — `Message.composeOrder`: timestamp (the compose stamp), then id,
/// the one order of docs/design.md §2.3 — compared in that order. Pages are defined by a cursor, never by an offset,
/// so messages arriving meanwhile shift nothing.
public struct MessageCursor: Hashable, Codable, Sendable, Comparable {
    /// Compose stamp of the message at this position.
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
