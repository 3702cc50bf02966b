import CourierDomain

/// A conversation's loaded messages in compose order, merged from backend pages and outbox events.
struct MessageTimeline {
    /// The messages, oldest first.
    private(set) var messages: [Message] = []

    /// The message with this id.
    func message(_ id: MessageID) -> Message? { index(of: id).map { messages[$0] } }

    /// Puts `message` in place of the one with its id, or at its compose position when it is new.
    mutating func upsert(_ message: Message) {
        if let index = index(of: message.id) {
            messages[index] = message
        } else {
            messages.insert(message, at: insertionIndex(for: message))
        }
    }

    /// Adds `message` unless it is known; when it is, keeps the one further along in its life (ties keep the known
    /// one, which outbox events keep current).
    mutating func merge(_ message: Message) {
        guard let index = index(of: message.id) else {
            messages.insert(message, at: insertionIndex(for: message))
            return
        }
        if messages[index].status < message.status { messages[index] = message }
    }

    /// Merges a page from the backend: O((n + p) log(n + p)), not one insertion per message.
    mutating func merge(page: [Message]) {
        var positions: [MessageID: Int] = [:]
        positions.reserveCapacity(messages.count)
        for (position, message) in messages.enumerated() { positions[message.id] = position }
        var added: [Message] = []
        for message in page {
            if let position = positions[message.id] {
                if messages[position].status < message.status { messages[position] = message }
            } else {
                positions[message.id] = -1
                added.append(message)
            }
        }
        guard !added.isEmpty else { return }
        messages = (messages + added).sorted(by: Message.composeOrder)
    }

    /// Removes the message with this id; returns whether it was there.
    @discardableResult
    mutating func remove(_ id: MessageID) -> Bool {
        guard let index = index(of: id) else { return false }
        messages.remove(at: index)
        return true
    }

    // Pending messages are the newest, and events concern them: search from the end.
    private func index(of id: MessageID) -> Int? { messages.lastIndex { $0.id == id } }

    private func insertionIndex(for message: Message) -> Int {
        var low = 0
        var high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if Message.composeOrder(messages[middle], message) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
