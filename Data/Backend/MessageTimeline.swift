import CourierDomain
import Foundation

/// One conversation's messages kept sorted in compose order (timestamp, then id), so that a position is found by
/// binary search: a page costs O(log n + page size) however long the conversation grows.
struct MessageTimeline {
    private(set) var messages: [Message] = []
    /// `messages[i].timestamp`, kept beside them for the binary search.
    private var timestamps: [TimeInterval] = []

    var count: Int { messages.count }

    /// The newest message in compose order.
    var last: Message? { messages.last }

    /// The index of the first message at or after `cursor` (`count` when every message comes before it).
    func lowerBound(_ cursor: MessageCursor) -> Int {
        // The search reads a dense array of timestamps and touches a message (its id) only on a tie, so a page at
        // 100,000 messages costs about what it costs at 1,000 (a probe into `messages` would be a cache miss).
        let time = cursor.timestamp.timeIntervalSinceReferenceDate
        var low = 0
        var high = timestamps.count
        while low < high {
            let middle = (low + high) / 2
            let probe = timestamps[middle]
            if probe < time || (probe == time && messages[middle].id < cursor.id) {
                low = middle + 1
            } else {
                high = middle
            }
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
        let time = message.timestamp.timeIntervalSinceReferenceDate
        if let last = messages.last, last.cursor < message.cursor {
            messages.append(message)
            timestamps.append(time)
        } else {
            let index = lowerBound(message.cursor)
            messages.insert(message, at: index)
            timestamps.insert(time, at: index)
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
