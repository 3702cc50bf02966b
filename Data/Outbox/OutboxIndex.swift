import CourierDomain
import Foundation

/// The outbox in memory: messages by id, plus their compose order kept sorted, so a lookup is O(1), an enqueue in
/// compose order O(1) amortised (O(log n) search otherwise) and `all` needs no sort. Each conversation also keeps
/// its own messages in compose order, so a chat's page is a slice of them: no lookup per message, and nothing that
/// depends on how many other messages wait.
struct OutboxIndex {
    private var messages: [MessageID: Message] = [:] {
        didSet { ordered = nil }
    }
    /// Every message's cursor, in compose order.
    private var order: [MessageCursor] = []
    /// Each conversation's messages, in compose order: a chat's newest page is a binary search and a slice away.
    private var conversations: [ConversationID: [Message]] = [:]
    /// The highest compose sequence each conversation has used, including by messages already gone.
    private(set) var sequenceMarks: [ConversationID: Int] = [:]
    /// `all`, kept until the next change: the screens that open read it again and again (the chat, its banner, the
    /// queue) while nothing changes in between.
    private var ordered: [Message]?

    /// How many messages hold each status, kept with every change.
    private var statusCounts: [MessageStatus: Int] = [:]

    /// How many messages it holds.
    var count: Int { messages.count }

    /// How many messages have `status`: O(1).
    func count(of status: MessageStatus) -> Int { statusCounts[status] ?? 0 }

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
        statusCounts[message.status, default: 0] += 1
        let cursor = message.cursor
        Self.insert(cursor, into: &order)
        Self.insert(message, into: &conversations[message.conversationID, default: []])
    }

    /// The newest `limit` messages of `conversation` before `cursor` (the newest when nil), in compose order:
    /// O(log n + limit).
    func page(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message] {
        guard let list = conversations[conversation], limit > 0 else { return [] }
        let end = cursor.map { Self.insertionIndex(of: $0, in: list) } ?? list.count
        return Array(list[max(0, end - limit)..<end])
    }

    /// Replaces a message by a changed one with the same id and compose position.
    mutating func replace(_ message: Message) {
        if let old = messages.updateValue(message, forKey: message.id), old.status != message.status {
            statusCounts[old.status, default: 0] -= 1
            statusCounts[message.status, default: 0] += 1
        }
        Self.replace(message, in: &conversations[message.conversationID, default: []])
    }

    /// Removes a message.
    mutating func remove(_ id: MessageID) {
        guard let message = messages.removeValue(forKey: id) else { return }
        statusCounts[message.status, default: 0] -= 1
        Self.remove(message.cursor, from: &order)
        Self.remove(message, from: &conversations[message.conversationID, default: []])
        if conversations[message.conversationID]?.isEmpty == true {
            conversations.removeValue(forKey: message.conversationID)
        }
    }

    /// Notes that `conversation` has used sequences up to `sequence`.
    mutating func raiseMark(_ conversation: ConversationID, to sequence: Int) {
        if sequence > sequenceMarks[conversation] ?? 0 { sequenceMarks[conversation] = sequence }
    }

    /// Removes every message (the sequence marks stay: sequences are never reused).
    mutating func removeAll() {
        messages.removeAll()
        statusCounts.removeAll()
        order.removeAll()
        conversations.removeAll()
    }

    /// Adds `cursor` to the sorted `cursors`: O(1) at the end (the usual case), a binary search otherwise.
    private static func insert(_ cursor: MessageCursor, into cursors: inout [MessageCursor]) {
        if let last = cursors.last, last > cursor {
            cursors.insert(cursor, at: insertionIndex(of: cursor, in: cursors))
        } else {
            cursors.append(cursor)
        }
    }

    /// Adds `message` to the conversation's `list`, kept in compose order like `insert(_:into:)`.
    private static func insert(_ message: Message, into list: inout [Message]) {
        if let last = list.last, last.cursor > message.cursor {
            list.insert(message, at: insertionIndex(of: message.cursor, in: list))
        } else {
            list.append(message)
        }
    }

    /// Puts `message` in place of the one in `list` with its id and compose position.
    private static func replace(_ message: Message, in list: inout [Message]) {
        let index = insertionIndex(of: message.cursor, in: list)
        if index < list.count, list[index].id == message.id { list[index] = message }
    }

    private static func remove(_ message: Message, from list: inout [Message]) {
        let index = insertionIndex(of: message.cursor, in: list)
        if index < list.count, list[index].id == message.id { list.remove(at: index) }
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

    /// The first position in `list` (in compose order) whose message is not before `cursor`.
    private static func insertionIndex(of cursor: MessageCursor, in list: [Message]) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if (list[middle].timestamp, list[middle].id) < (cursor.timestamp, cursor.id) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    // MARK: - Replay

    /// The outbox that `records` describe, applied in order. Records about an unknown message (whose `put` was
    /// lost to corruption) are ignored and counted. A message from a version-1 record has no sequence: it gets the
    /// next one of its conversation in log order, which is the order it was enqueued in — compose order — and the
    /// same on every open, so the numbers are stable until a compaction writes them down.
    static func replaying<Records: Sequence<OutboxRecord>>(
        _ records: Records, logger: Logger
    ) -> (index: OutboxIndex, ignored: Int) {
        var messages: [MessageID: Message] = [:]
        messages.reserveCapacity(records.underestimatedCount)
        var marks: [ConversationID: Int] = [:]
        var ignored = 0
        for var record in records {
            do {
                try apply(&record, to: &messages, marks: &marks)
            } catch {
                ignored += 1
                logger.log(.warning, "outbox: ignored a stored \(record.kind.rawValue) record: \(error)")
            }
        }
        var index = OutboxIndex()
        index.sequenceMarks = marks
        // One sort, of each message's cursor beside where the message lies in the table, then every view is a pass
        // over it with no lookups. Cursors are sorted rather than messages, and compared field by field: sorting the
        // messages themselves moved 10,000 large values around and copied two ids per comparison, most of the cost
        // of opening. `all` is left to be built when first asked for: a launch that opens a chat never reads it, and
        // a third copy of every message would only cost memory touched.
        let values = messages.values
        var sorted: [(cursor: MessageCursor, position: Dictionary<MessageID, Message>.Index)] = []
        sorted.reserveCapacity(values.count)
        var sizes: [ConversationID: Int] = [:]
        for position in values.indices {
            let message = values[position]
            sorted.append((message.cursor, position))
            sizes[message.conversationID, default: 0] += 1
            index.statusCounts[message.status, default: 0] += 1
        }
        sorted.sort { left, right in
            left.cursor.timestamp < right.cursor.timestamp
                || (left.cursor.timestamp == right.cursor.timestamp && left.cursor.id < right.cursor.id)
        }
        index.order = sorted.map(\.cursor)
        // Each conversation's list is allocated once at its size: grown by doubling, a chat holding 10,000 would
        // copy its list a dozen times over.
        for (conversation, size) in sizes {
            var list: [Message] = []
            list.reserveCapacity(size)
            index.conversations[conversation] = list
        }
        for entry in sorted {
            let message = values[entry.position]
            index.conversations[message.conversationID, default: []].append(message)
        }
        index.messages = messages
        return (index, ignored)
    }

    /// Applies `record`, taking its message (a `put`'s is moved into the table, not copied).
    private static func apply(
        _ record: inout OutboxRecord, to messages: inout [MessageID: Message], marks: inout [ConversationID: Int]
    ) throws {
        switch record.kind {
        case .put:
            guard var message = record.message.take() else { throw RecordFormatError(description: "no message") }
            let mark = marks[message.conversationID] ?? 0
            if record.sequence == nil { message.sequence = mark + 1 }
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
