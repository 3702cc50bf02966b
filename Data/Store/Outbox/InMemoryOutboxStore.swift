import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An `OutboxStore` that keeps messages in memory only: for previews, tests and simulations that model the disk
/// elsewhere. It enforces the same rules as the file store (duplicates, transitions, capacity), so code tested
/// against it behaves the same on disk.
public final class InMemoryOutboxStore: OutboxStore, @unchecked Sendable {
    private let lock = Lock()
    private var messages: [MessageID: Message] = [:]
    /// The newest compose stamp each conversation has had, including by messages already gone.
    private var stampMarks: [ConversationID: Date] = [:]
    /// How many messages hold each status, kept with every change.
    private var statusCounts: [MessageStatus: Int] = [:]
    private let capacity: Int

    /// The messages found `sending` when the store was made, now `queued` (as a reopened file store reports them).
    public let requeuedAtOpen: [MessageID]

    /// Creates an empty store holding at most `capacity` messages, or one holding `messages` — as if reopened:
    /// those `sending` go back to `queued`, `unanswered` (their outcome is unknown), and are listed in
    /// `requeuedAtOpen`.
    public init(capacity: Int = 20_000, messages: [Message] = []) {
        self.capacity = capacity
        var requeued: [Message] = []
        for var message in messages {
            if message.status == .sending {
                message.status = .queued
                message.lastError = .unanswered
                message.outcomeUnknown = true
                requeued.append(message)
            }
            self.messages[message.id] = message
            stampMarks[message.conversationID] = max(
                stampMarks[message.conversationID] ?? .distantPast, message.timestamp)
        }
        for message in self.messages.values { statusCounts[message.status, default: 0] += 1 }
        requeuedAtOpen = requeued.sorted(by: Message.composeOrder).map(\.id)
    }

    public func enqueue(_ message: Message) throws {
        try lock.withLock {
            guard messages[message.id] == nil else { throw StoreError.duplicateID(message.id.rawValue) }
            guard messages.count < capacity else { throw StoreError.capacityReached(limit: capacity) }
            messages[message.id] = message
            statusCounts[message.status, default: 0] += 1
            raiseMark(for: message)
        }
    }

    public func remove(_ id: MessageID) throws {
        try lock.withLock {
            guard let removed = messages.removeValue(forKey: id) else { throw InputError.unknownMessage(id) }
            statusCounts[removed.status, default: 0] -= 1
        }
    }

    public func all() -> [Message] { lock.withLock { messages.values.sorted(by: Message.composeOrder) } }

    public func message(_ id: MessageID) -> Message? { lock.withLock { messages[id] } }

    public func composeMark(in conversation: ConversationID) -> Date? { lock.withLock { stampMarks[conversation] } }

    public var count: Int { lock.withLock { messages.count } }

    public func count(of status: MessageStatus) -> Int { lock.withLock { statusCounts[status] ?? 0 } }

    public func removeAll() throws {
        lock.withLock {
            messages.removeAll()
            statusCounts.removeAll()
        }
    }

    @discardableResult
    public func updateText(of id: MessageID, to text: String) throws -> Message {
        try lock.withLock {
            guard var message = messages[id] else { throw InputError.unknownMessage(id) }
            message.text = text
            messages[id] = message
            return message
        }
    }

    @discardableResult
    public func updateStatus(
        of id: MessageID, to status: MessageStatus, at date: Date, attempts: Int?, lastError: DeliveryError?
    ) throws -> Message {
        try lock.withLock {
            guard let current = messages[id] else { throw InputError.unknownMessage(id) }
            let message = try current.changingStatus(to: status, at: date, attempts: attempts, lastError: lastError)
            messages[id] = message
            statusCounts[current.status, default: 0] -= 1
            statusCounts[message.status, default: 0] += 1
            return message
        }
    }

    @discardableResult
    public func requestSendAll() throws -> [Message] {
        lock.withLock {
            var asked: [Message] = []
            for (id, message) in messages
            where (message.status == .queued || message.status == .failed) && !message.sendRequested {
                messages[id]?.sendRequested = true
                asked.append(messages[id] ?? message)
            }
            return asked.sorted(by: Message.composeOrder)
        }
    }

    /// Raises the conversation's stamp mark to `message`'s timestamp. Call with `lock` held.
    private func raiseMark(for message: Message) {
        stampMarks[message.conversationID] = max(stampMarks[message.conversationID] ?? .distantPast, message.timestamp)
    }
}
