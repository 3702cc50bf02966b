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
    /// Each conversation's cursors, in compose order: a chat's newest page is a binary search and a slice away.
    private var conversationOrder: [ConversationID: [MessageCursor]] = [:]
    /// The highest compose sequence each conversation has used, including by messages already gone.
    private(set) var sequenceMarks: [ConversationID: Int] = [:]
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

    /// The sequence the next message composed in `conversation` gets.
    func nextSequence(in conversation: ConversationID) -> Int { (sequenceMarks[conversation] ?? 0) + 1 }

    /// Adds a message whose id is not there yet.
    mutating func insert(_ message: Message) {
        raiseMark(message.conversationID, to: message.sequence)
        messages[message.id] = message
        let cursor = message.cursor
        Self.insert(cursor, into: &order)
        Self.insert(cursor, into: &conversationOrder[message.conversationID, default: []])
    }

    /// The newest `limit` messages of `conversation` before `cursor` (the newest when nil), in compose order:
    /// O(log n + limit).
    func page(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message] {
        guard let cursors = conversationOrder[conversation], limit > 0 else { return [] }
        let end = cursor.map { Self.insertionIndex(of: $0, in: cursors) } ?? cursors.count
        return cursors[max(0, end - limit)..<end].compactMap { messages[$0.id] }
    }

    /// Replaces a message by a changed one with the same id and compose position.
    mutating func replace(_ message: Message) { messages[message.id] = message }

    /// Removes a message.
    mutating func remove(_ id: MessageID) {
        guard let message = messages.removeValue(forKey: id) else { return }
        Self.remove(message.cursor, from: &order)
        Self.remove(message.cursor, from: &conversationOrder[message.conversationID, default: []])
        if conversationOrder[message.conversationID]?.isEmpty == true {
            conversationOrder.removeValue(forKey: message.conversationID)
        }
    }

    /// Notes that `conversation` has used sequences up to `sequence`.
    mutating func raiseMark(_ conversation: ConversationID, to sequence: Int) {
        if sequence > sequenceMarks[conversation] ?? 0 { sequenceMarks[conversation] = sequence }
    }

    /// Removes every message (the sequence marks stay: sequences are never reused).
    mutating func removeAll() {
        messages.removeAll()
        order.removeAll()
        conversationOrder.removeAll()
    }

    /// Adds `cursor` to the sorted `cursors`: O(1) at the end (the usual case), a binary search otherwise.
    private static func insert(_ cursor: MessageCursor, into cursors: inout [MessageCursor]) {
        if let last = cursors.last, last > cursor {
            cursors.insert(cursor, at: insertionIndex(of: cursor, in: cursors))
        } else {
            cursors.append(cursor)
        }
    }

    private static func remove(_ cursor: MessageCursor, from cursors: inout [MessageCursor]) {
        let index = insertionIndex(of: cursor, in: cursors)
        if index < cursors.count, cursors[index] == cursor { cursors.remove(at: index) }
    }

    /// The first position in the sorted `cursors` whose cursor is not below `cursor`.
    private static func insertionIndex(of cursor: MessageCursor, in cursors: [MessageCursor]) -> Int {
        var low = 0
        var high = cursors.count
        while low < high {
            let middle = (low + high) / 2
            if cursors[middle] < cursor { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: - Replay

    /// The outbox that `records` describe, applied in order. Records about an unknown message (whose `put` was
    /// lost to corruption) are ignored and counted. A message from a version-1 record has no sequence: it gets the
    /// next one of its conversation in log order, which is the order it was enqueued in — compose order — and the
    /// same on every open, so the numbers are stable until a compaction writes them down.
    static func replaying(_ records: [OutboxRecord], logger: Logger) -> (index: OutboxIndex, ignored: Int) {
        var messages: [MessageID: Message] = [:]
        messages.reserveCapacity(records.count)
        var marks: [ConversationID: Int] = [:]
        var ignored = 0
        for record in records {
            do {
                try apply(record, to: &messages, marks: &marks)
            } catch {
                ignored += 1
                logger.log(.warning, "outbox: ignored a stored \(record.kind.rawValue) record: \(error)")
            }
        }
        var index = OutboxIndex()
        index.sequenceMarks = marks
        index.messages = messages
        index.order = messages.values.map(\.cursor).sorted()
        for cursor in index.order {
            if let message = messages[cursor.id] {
                index.conversationOrder[message.conversationID, default: []].append(cursor)
            }
        }
        return (index, ignored)
    }

    private static func apply(
        _ record: OutboxRecord, to messages: inout [MessageID: Message], marks: inout [ConversationID: Int]
    ) throws {
        switch record.kind {
        case .put:
            guard let stored = record.message else { throw RecordFormatError(description: "no message") }
            var message = try Message(stored)
            let mark = marks[message.conversationID] ?? 0
            if stored.sequence == nil { message.sequence = mark + 1 }
            marks[message.conversationID] = max(mark, message.sequence)
            messages[message.id] = message
        case .status:
            let id = try existingID(record, in: messages)
            guard let code = record.status, let at = record.at else {
                throw RecordFormatError(description: "a status change without a status and time")
            }
            let status = try StorageCode.status(code)
            let lastError = try record.error.map(DeliveryError.init)
            messages[id]?.status = status
            messages[id]?.statusUpdatedAt = Date(timeIntervalSinceReferenceDate: at)
            if let attempts = record.attempts { messages[id]?.attempts = attempts }
            messages[id]?.lastError = lastError
        case .text:
            let id = try existingID(record, in: messages)
            guard let text = record.text else { throw RecordFormatError(description: "no text") }
            messages[id]?.text = text
        case .remove:
            messages.removeValue(forKey: try existingID(record, in: messages))
        case .clear:
            messages.removeAll()
        case .mark:
            guard let raw = record.conversation, let sequence = record.sequence else {
                throw RecordFormatError(description: "a mark without a conversation and sequence")
            }
            let conversation = ConversationID(raw)
            marks[conversation] = max(marks[conversation] ?? 0, sequence)
        }
    }

    private static func existingID(_ record: OutboxRecord, in messages: [MessageID: Message]) throws -> MessageID {
        guard let raw = record.id, messages[MessageID(raw)] != nil else {
            throw RecordFormatError(description: "no stored message \(record.id ?? "(none)")")
        }
        return MessageID(raw)
    }
}
