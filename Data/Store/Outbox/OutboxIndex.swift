import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The outbox in memory: messages by id, plus their compose order (`Message.composeOrder`: timestamp, then id, the
/// one order of docs/design.md §2.3) kept sorted, so a lookup is O(1), an enqueue in compose order O(1) amortised
/// (O(log n) search otherwise) and `all` needs no sort. Each conversation also keeps
/// its own messages in compose order, so a chat's page is a slice of them: no lookup per message, and nothing that
/// depends on how many other messages wait.
package struct OutboxIndex {
    private var messages: [MessageID: Message] = [:] {
        didSet { ordered = nil }
    }
    /// Every message's cursor, in compose order.
    private var order: [MessageCursor] = []
    /// Each conversation's messages, in compose order: a chat's newest page is a binary search and a slice away.
    private var conversations: [ConversationID: [Message]] = [:]
    /// The newest compose stamp each conversation has had, including by messages already gone.
    private(set) var stampMarks: [ConversationID: Date] = [:]
    /// `all`, kept until the next change: the screens that open read it again and again (the chat, its banner, the
    /// queue) while nothing changes in between.
    private var ordered: [Message]?

    /// How many messages hold each status, kept with every change.
    private var statusCounts: [MessageStatus: Int] = [:]
    /// How many messages a Send All still waits for (`sendRequested`, not failed), kept with every change.
    private(set) var requestedCount = 0

    /// How many messages it holds.
    var count: Int { messages.count }

    /// Every message, by id.
    var byID: [MessageID: Message] { messages }

    /// How many messages have `status`: O(1).
    func count(of status: MessageStatus) -> Int { statusCounts[status] ?? 0 }

    /// How many messages `conversation` holds.
    func count(in conversation: ConversationID) -> Int { conversations[conversation]?.count ?? 0 }

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

    /// The newest compose stamp `conversation` has had: the next message composed there is stamped after it.
    func composeMark(in conversation: ConversationID) -> Date? { stampMarks[conversation] }

    /// Adds a message whose id is not there yet.
    mutating func insert(_ message: Message) {
        raiseMark(message.conversationID, to: message.timestamp)
        messages[message.id] = message
        statusCounts[message.status, default: 0] += 1
        if message.awaitsSendAll { requestedCount += 1 }
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
        let old = messages.updateValue(message, forKey: message.id)
        if let old, old.status != message.status {
            statusCounts[old.status, default: 0] -= 1
            statusCounts[message.status, default: 0] += 1
        }
        requestedCount += (message.awaitsSendAll ? 1 : 0) - (old?.awaitsSendAll == true ? 1 : 0)
        Self.replace(message, in: &conversations[message.conversationID, default: []])
    }

    /// Removes a message.
    mutating func remove(_ id: MessageID) {
        guard let message = messages.removeValue(forKey: id) else { return }
        statusCounts[message.status, default: 0] -= 1
        if message.awaitsSendAll { requestedCount -= 1 }
        Self.remove(message.cursor, from: &order)
        Self.remove(message, from: &conversations[message.conversationID, default: []])
        if conversations[message.conversationID]?.isEmpty == true {
            conversations.removeValue(forKey: message.conversationID)
        }
    }

    /// Notes that `conversation` has had a compose stamp as new as `stamp`.
    mutating func raiseMark(_ conversation: ConversationID, to stamp: Date) {
        if stamp > stampMarks[conversation] ?? .distantPast { stampMarks[conversation] = stamp }
    }

    /// Removes every message (the stamp marks stay: a conversation's stamps never go back).
    mutating func removeAll() {
        messages.removeAll()
        statusCounts.removeAll()
        requestedCount = 0
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

    /// The index of `messages`, replayed from a log whose conversations have had compose stamps up to `marks`.
    init(replayed messages: [MessageID: Message], marks: [ConversationID: Date]) {
        stampMarks = marks
        // One sort, of each message's time beside where the message lies in the table, then every view is a pass
        // over it with no lookups. Times are sorted rather than messages: sorting the messages themselves moved
        // 10,000 large values around and copied two ids per comparison, most of the cost of opening; and an id is
        // read only to break a tie, so the sort touches no string. `all` is left to be built when first asked for:
        // a launch that opens a chat never reads it, and a third copy of every message would only cost memory.
        let values = messages.values
        var sorted: [(timestamp: Date, position: Dictionary<MessageID, Message>.Index)] = []
        sorted.reserveCapacity(values.count)
        // Fields are read in place: a copy of each message would retain every one of its strings and release them.
        // Statuses are counted by their code, with no hashing per message.
        var counts = [Int](repeating: 0, count: 256)
        for position in values.indices {
            sorted.append((values[position].timestamp, position))
            counts[Int(StorageCode.code(of: values[position].status))] += 1
            if values[position].awaitsSendAll { requestedCount += 1 }
        }
        for (code, count) in counts.enumerated() where count > 0 {
            if let status = try? StorageCode.status(UInt8(code)) { statusCounts[status] = count }
        }
        sorted.sort { left, right in
            left.timestamp < right.timestamp
                || (left.timestamp == right.timestamp && values[left.position].id < values[right.position].id)
        }
        order = sorted.map { MessageCursor(timestamp: $0.timestamp, id: values[$0.position].id) }
        // A queue mostly waits in one or a few chats: each run of one conversation's messages in compose order is
        // looked up once, not once per message.
        var runs: [(conversation: ConversationID, range: Range<Int>)] = []
        for (offset, entry) in sorted.enumerated() {
            let conversation = values[entry.position].conversationID
            if let last = runs.last, last.conversation == conversation {
                runs[runs.count - 1].range = last.range.lowerBound..<(offset + 1)
            } else {
                runs.append((conversation, offset..<(offset + 1)))
            }
        }
        // Each conversation's list is allocated once at its size: grown by doubling, a chat holding 10,000 would
        // copy its list a dozen times over.
        var sizes: [ConversationID: Int] = [:]
        for run in runs { sizes[run.conversation, default: 0] += run.range.count }
        for (conversation, size) in sizes {
            var list: [Message] = []
            list.reserveCapacity(size)
            conversations[conversation] = list
        }
        for run in runs {
            let messages = sorted[run.range].lazy.map { values[$0.position] }
            conversations[run.conversation, default: []].append(contentsOf: messages)
        }
        self.messages = messages
    }
}
