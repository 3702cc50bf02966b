#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A position in a conversation's order — `Message.composeOrder`: timestamp (the time the backend gives a stored
/// message), then id, the one order of docs/design.md §2.3 — compared in that order, and, where it ends a page, the
/// backend's own token for asking for what comes before it. Pages are defined by a cursor, never by an offset, so
/// messages arriving meanwhile shift nothing.
///
/// The token is the backend's and opaque: a page carries it (`MessagePage.olderToken`), the device hands it back as
/// it came with the next request, and nothing on the device reads it or compares by it (two cursors at the same
/// position are equal whatever their tokens). A cursor made on the device (from a message it holds, or after a
/// relaunch) has none, and the backend finds the position from the timestamp and id.
public struct MessageCursor: Hashable, Codable, Sendable, Comparable {
    /// The timestamp of the message at this position.
    public var timestamp: Date
    /// Id of the message at this position.
    public var id: MessageID
    /// The backend's token for the place just before this position, when it gave one (a Matrix `/messages` token,
    /// Courier's `nextCursor`); opaque.
    public var token: String?

    /// Creates a cursor.
    public init(timestamp: Date, id: MessageID, token: String? = nil) {
        self.timestamp = timestamp
        self.id = id
        self.token = token
    }

    public static func < (lhs: MessageCursor, rhs: MessageCursor) -> Bool {
        (lhs.timestamp, lhs.id) < (rhs.timestamp, rhs.id)
    }

    /// The same position: the token does not count.
    public static func == (lhs: MessageCursor, rhs: MessageCursor) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(id)
    }
}
