import CourierDomain
import Foundation

/// The outbox in memory: messages by id, plus their compose order kept sorted, so a lookup is O(1), an enqueue in
/// compose order O(1) amortised (O(log n) search otherwise) and `all` needs no sort.
struct OutboxIndex {
    private var messages: [MessageID: Message] = [:] {
        didSet { ordered = nil }
    }
    /// Every message's cursor, in compose order.
    private var order: [MessageCursor] = []
    /// `all`, kept until the next change: the screens that open read it again and again (the chat, its banner, the
    /// queue) while nothing changes in between.
    private var ordered: [Message]?

    /// How many messages it holds.
    var count: Int { messages.count }

    /// Every message, in compose order.
    var all: [Message] {
        mutating get {
            if let ordered { return ordered }
            let built = order.compactMap { messages[$0.id] }
            ordered = built
            return built
        }
    }

    /// The message with this id.
    subscript(id: MessageID) -> Message? { messages[id] }

    /// Adds a message whose id is not there yet.
    mutating func insert(_ message: Message) {
        messages[message.id] = message
        let cursor = message.cursor
        if let last = order.last, last > cursor {
            order.insert(cursor, at: insertionIndex(of: cursor))
        } else {
            order.append(cursor)
        }
    }

    /// Replaces a message by a changed one with the same id and compose position.
    mutating func replace(_ message: Message) { messages[message.id] = message }

    /// Removes a message.
    mutating func remove(_ id: MessageID) {
        guard let message = messages.removeValue(forKey: id) else { return }
        let index = insertionIndex(of: message.cursor)
        if index < order.count, order[index] == message.cursor { order.remove(at: index) }
    }

    /// Removes every message.
    mutating func removeAll() {
        messages.removeAll()
        order.removeAll()
    }

    /// The first position whose cursor is not below `cursor`.
    private func insertionIndex(of cursor: MessageCursor) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if order[middle] < cursor { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: - Replay

    /// The outbox that `records` describe, applied in order. Records about an unknown message (whose `put` was
    /// lost to corruption) are ignored and counted.
    static func replaying(_ records: [OutboxRecord], logger: Logger) -> (index: OutboxIndex, ignored: Int) {
        var messages: [MessageID: Message] = [:]
        messages.reserveCapacity(records.count)
        var ignored = 0
        for record in records {
            do {
                try apply(record, to: &messages)
            } catch {
                ignored += 1
                logger.log(.warning, "outbox: ignored a stored \(record.kind.rawValue) record: \(error)")
            }
        }
        var index = OutboxIndex()
        index.messages = messages
        index.order = messages.values.map(\.cursor).sorted()
        return (index, ignored)
    }

    private static func apply(_ record: OutboxRecord, to messages: inout [MessageID: Message]) throws {
        switch record.kind {
        case .put:
            guard let stored = record.message else { throw OutboxRecordMappingError(description: "no message") }
            let message = try Message(stored)
            messages[message.id] = message
        case .status:
            let id = try existingID(record, in: messages)
            guard let code = record.status, let at = record.at else {
                throw OutboxRecordMappingError(description: "a status change without a status and time")
            }
            let status = try OutboxStorageCode.status(code)
            let lastError = try record.error.map(DeliveryError.init)
            messages[id]?.status = status
            messages[id]?.statusUpdatedAt = Date(timeIntervalSinceReferenceDate: at)
            if let attempts = record.attempts { messages[id]?.attempts = attempts }
            messages[id]?.lastError = lastError
        case .text:
            let id = try existingID(record, in: messages)
            guard let text = record.text else { throw OutboxRecordMappingError(description: "no text") }
            messages[id]?.text = text
        case .remove:
            messages.removeValue(forKey: try existingID(record, in: messages))
        case .clear:
            messages.removeAll()
        }
    }

    private static func existingID(_ record: OutboxRecord, in messages: [MessageID: Message]) throws -> MessageID {
        guard let raw = record.id, messages[MessageID(raw)] != nil else {
            throw OutboxRecordMappingError(description: "no stored message \(record.id ?? "(none)")")
        }
        return MessageID(raw)
    }
}
