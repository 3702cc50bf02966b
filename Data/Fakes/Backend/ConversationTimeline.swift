import CourierData
import CourierDomain
import Foundation

/// One conversation's messages in compose order — `Message.composeOrder`: timestamp (the compose stamp the sending
/// device gave), then id, the one order of docs/design.md §2.3 — whatever order they arrive in: a message held back
/// (queued offline, failed, retried) takes its compose position when it finally arrives, as its sender's device
/// already shows it. So the device's caches, pages and cursors agree with the backend's by construction.
///
/// A position is found through an id index, so a page costs O(1 + page size) however long the conversation grows;
/// an arrival after the newest (the common case) appends in O(1), a late one is placed by a binary search and moves
/// what follows it.
struct ConversationTimeline {
    private(set) var messages: [Message] = []
    /// Where each message sits in `messages`.
    private var positions: [MessageID: Int] = [:]

    var count: Int { messages.count }

    /// The newest message in compose order.
    var last: Message? { messages.last }

    /// The position of the message with this id, if stored.
    func position(of id: MessageID) -> Int? { positions[id] }

    /// The stored message with this id.
    func message(_ id: MessageID) -> Message? { positions[id].map { messages[$0] } }

    /// Adds a newly arrived message at its compose position: at the end, or before the first message that follows it
    /// in compose order.
    mutating func add(_ message: Message) {
        guard let last = messages.last, Message.composeOrder(message, last) else { return append(message) }
        var low = 0
        var high = messages.count - 1
        while low < high {
            let middle = (low + high) / 2
            if Message.composeOrder(messages[middle], message) { low = middle + 1 } else { high = middle }
        }
        messages.insert(message, at: low)
        for index in low..<messages.count { positions[messages[index].id] = index }
    }

    /// Takes the message with this id out (its sender deleted it); what follows moves up. Returns it, or nil when it
    /// is not stored.
    mutating func remove(_ id: MessageID) -> Message? {
        guard let index = positions.removeValue(forKey: id) else { return nil }
        let removed = messages.remove(at: index)
        for position in index..<messages.count { positions[messages[position].id] = position }
        return removed
    }

    private mutating func append(_ message: Message) {
        positions[message.id] = messages.count
        messages.append(message)
    }

    /// Up to `limit` messages just before the one `cursor` names (the newest when nil), oldest first; `hasMore` when
    /// older ones exist. Nil when the cursor names no stored message.
    func page(before cursor: MessageCursor?, limit: Int) -> MessagePage? {
        let end: Int
        if let cursor {
            guard let position = positions[cursor.id] else { return nil }
            end = position
        } else {
            end = messages.count
        }
        let start = max(0, end - limit)
        return MessagePage(messages: Array(messages[start..<end]), hasMore: start > 0)
    }
}
