import CourierData
import CourierDomain
import Foundation

/// One conversation's messages in conversation order: the order they arrived at the server, except that each
/// sender's messages keep their compose order (`Message.sequence`) — a message that was held back (queued, failed,
/// retried) takes its compose position before that sender's later messages when it finally arrives. Never sorted by
/// a client's clock, which may jump, run backwards or differ between devices. Messages without a sequence (0: seed
/// data, messages injected as received) stay where they arrived.
///
/// A position is found through an id index, so a page costs O(1 + page size) however long the conversation grows;
/// an arrival in sequence order (the common case) appends in O(1), a held-back one moves what follows it.
struct ConversationTimeline {
    private(set) var messages: [Message] = []
    /// Where each message sits in `messages`.
    private var positions: [MessageID: Int] = [:]
    /// Each sender's sequenced messages, ascending by sequence (which is also their order in `messages`).
    private var sequences: [UserID: [(sequence: Int, id: MessageID)]] = [:]

    var count: Int { messages.count }

    /// The newest message in conversation order.
    var last: Message? { messages.last }

    /// The position of the message with this id, if stored.
    func position(of id: MessageID) -> Int? { positions[id] }

    /// The stored message with this id.
    func message(_ id: MessageID) -> Message? { positions[id].map { messages[$0] } }

    /// Adds a newly arrived message: at the end, or before the first message its sender composed after it.
    mutating func add(_ message: Message) {
        guard message.sequence > 0 else { return append(message) }
        var own = sequences[message.senderID] ?? []
        var low = 0
        var high = own.count
        while low < high {
            let middle = (low + high) / 2
            if own[middle].sequence <= message.sequence { low = middle + 1 } else { high = middle }
        }
        own.insert((message.sequence, message.id), at: low)
        sequences[message.senderID] = own
        guard low + 1 < own.count, let next = positions[own[low + 1].id] else { return append(message) }
        messages.insert(message, at: next)
        for index in next..<messages.count { positions[messages[index].id] = index }
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
