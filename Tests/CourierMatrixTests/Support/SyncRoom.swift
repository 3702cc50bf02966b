import Foundation

/// One joined room of a `/sync` answer, as a client reads it: the timeline's messages, whether events were left out
/// before them, the receipts and the unread count.
struct SyncRoom {
    /// The timeline's `m.room.message` events, oldest first.
    let messages: [PeerEvent]
    /// Whether the server left events out before `messages` (more were new than the timeline limit).
    let limited: Bool
    /// The token just before the timeline, to page back from with `/messages`.
    let prevBatch: String?
    /// The `m.receipt` contents: event id → receipt type → user id → details.
    let receipts: [String: [String: [String: Any]]]
    /// `unread_notifications.notification_count`: what the push rules count as unread.
    let notificationCount: Int?

    /// The room `roomID` under `rooms.join` of `sync`, or nil when the answer does not mention it.
    init?(_ roomID: String, in sync: [String: Any]) {
        let rooms = (sync["rooms"] as? [String: Any])?["join"] as? [String: Any]
        guard let room = rooms?[roomID] as? [String: Any] else { return nil }
        let timeline = room["timeline"] as? [String: Any] ?? [:]
        messages = (timeline["events"] as? [[String: Any]] ?? []).compactMap(PeerEvent.init)
        limited = timeline["limited"] as? Bool ?? false
        prevBatch = timeline["prev_batch"] as? String
        let ephemeral = (room["ephemeral"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        var receipts: [String: [String: [String: Any]]] = [:]
        for event in ephemeral where event["type"] as? String == "m.receipt" {
            for (eventID, byType) in event["content"] as? [String: [String: [String: Any]]] ?? [:] {
                receipts[eventID, default: [:]].merge(byType) { _, new in new }
            }
        }
        self.receipts = receipts
        let unread = room["unread_notifications"] as? [String: Any]
        notificationCount = (unread?["notification_count"] as? NSNumber)?.intValue
    }
}
