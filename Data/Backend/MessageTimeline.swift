import CourierDomain
import Foundation

/// One conversation's messages kept sorted in compose order (timestamp, then id), so that a position is found by
/// binary search: a page costs O(log n + page size) however long the conversation grows.
struct MessageTimeline {
    private(set) var messages: [Message] = []

    var count: Int { messages.count }

    /// The newest message in compose order.
    var last: Message? { messages.last }

    /// The index of the first message at or after `cursor` (`count` when every message comes before it).
    func lowerBound(_ cursor: MessageCursor) -> Int {
        var low = 0
        var high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if messages[middle].cursor < cursor { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The message at exactly this position, if stored.
    func message(at cursor: MessageCursor) -> Message? {
        let index = lowerBound(cursor)
        guard index < messages.count, messages[index].cursor == cursor else { return nil }
        return messages[index]
    }

    /// Inserts `message` at its compose position. Appending in order (the common case) moves nothing.
    mutating func insert(_ message: Message) {
        if let last = messages.last, last.cursor < message.cursor {
            messages.append(message)
        } else {
            messages.insert(message, at: lowerBound(message.cursor))
        }
    }

    /// Up to `limit` messages just before `cursor` (the newest when nil), oldest first; `hasMore` when older ones
    /// exist.
    func page(before cursor: MessageCursor?, limit: Int) -> MessagePage {
        let end = cursor.map(lowerBound) ?? messages.count
        let start = max(0, end - limit)
        return MessagePage(messages: Array(messages[start..<end]), hasMore: start > 0)
    }
}
