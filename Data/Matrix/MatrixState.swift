import CourierDomain
import Foundation

/// What the client learned from the homeserver and keeps in memory: which event each message is, where each event
/// stands, the token that pages before a page's oldest message, and what it knows of each room. Guarded by a lock:
/// requests run concurrently.
final class MatrixState: @unchecked Sendable {
    /// What the client knows of a joined room.
    struct Room: Sendable {
        var name: String?
        var members: Set<UserID> = []
        var lastMessage: Message?
        var lastActivity: Date = .distantPast
        var unread = 0
        var hidden = false
    }

    private let lock = NSLock()
    private var eventIDs: [MessageID: String] = [:]
    private var cursors: [String: MessageCursor] = [:]
    private var pageTokens: [MessageCursor: String] = [:]
    private var rooms: [ConversationID: Room] = [:]
    private var filterNonce = 0

    /// Notes that `message` is the event `eventID`.
    func learn(_ message: Message, eventID: String) {
        lock.withLock {
            eventIDs[message.id] = eventID
            cursors[eventID] = message.cursor
        }
    }

    /// The event id of a message, when known.
    func eventID(of message: MessageID) -> String? { lock.withLock { eventIDs[message] } }

    /// Where an event stands, when known.
    func cursor(of eventID: String) -> MessageCursor? { lock.withLock { cursors[eventID] } }

    /// Keeps `token` as the way to page before `cursor`.
    func keepPageToken(_ token: String, before cursor: MessageCursor) { lock.withLock { pageTokens[cursor] = token } }

    /// The token that pages before `cursor`, when a page ended there.
    func pageToken(before cursor: MessageCursor) -> String? { lock.withLock { pageTokens[cursor] } }

    /// The room, as known.
    func room(_ id: ConversationID) -> Room? { lock.withLock { rooms[id] } }

    /// Every room known, by id.
    var allRooms: [ConversationID: Room] { lock.withLock { rooms } }

    /// Changes (or adds) a room; returns it as changed.
    @discardableResult
    func update(_ id: ConversationID, _ change: (inout Room) -> Void) -> Room {
        lock.withLock {
            var room = rooms[id] ?? Room()
            change(&room)
            rooms[id] = room
            return room
        }
    }

    /// Forgets a room the user left.
    func forget(_ id: ConversationID) { _ = lock.withLock { rooms.removeValue(forKey: id) } }

    /// A number no earlier full `/sync` of this client used: a homeserver answers an identical `/sync` from a cache
    /// for a while (Synapse: 2 minutes), so a list read twice in that time would miss what changed.
    func nextNonce() -> Int {
        lock.withLock {
            filterNonce += 1
            return filterNonce
        }
    }
}
