import CourierDomain

/// A conversation's loaded messages in compose order (`Message.composeOrder`: timestamp, then id — the one order of
/// docs/design.md §2.3, the backend's too), merged from backend pages and outbox events, with an index from id to
/// position: an event about one message costs O(1) when it is the newest (the usual case: pending messages are the
/// newest) and O(distance from the end) otherwise, and an older page costs its own size (it goes in front), never a
/// pass over the whole conversation.
struct MessageTimeline {
    /// The messages, oldest first.
    private(set) var messages: [Message] = []
    /// Each message's position plus `base`: prepending a page lowers `base` instead of moving every position.
    private var positions: [MessageID: Int] = [:]
    private var base = 0
    /// Goes up with every change of `messages`: equal revisions mean the same messages at the same positions.
    private(set) var revision = 0

    /// The message with this id.
    func message(_ id: MessageID) -> Message? { index(of: id).map { messages[$0] } }

    /// Where the message with this id stands in `messages`.
    func index(of id: MessageID) -> Int? { positions[id].map { $0 - base } }

    /// Puts `message` in place of the one with its id, or at its compose position when it is new. Returns its
    /// position and whether it is new.
    @discardableResult
    mutating func upsert(_ message: Message) -> (index: Int, inserted: Bool) {
        revision += 1
        if let index = index(of: message.id) {
            messages[index] = message
            return (index, false)
        }
        let index = insertionIndex(for: message)
        insert(message, at: index)
        return (index, true)
    }

    /// Adds `message` unless it is known; when it is, keeps the one further along in its life (ties keep the known
    /// one, which outbox events keep current).
    mutating func merge(_ message: Message) {
        guard let index = index(of: message.id) else {
            revision += 1
            insert(message, at: insertionIndex(for: message))
            return
        }
        if messages[index].status < message.status {
            revision += 1
            messages[index] = message
        }
    }

    /// Merges a page from the backend or the outbox: O(p) when it goes before, after or instead of every known
    /// message (the usual cases: an older page, a newer one, the first one), O((n + p) log(n + p)) when it
    /// interleaves; never one insertion per message.
    mutating func merge(page: [Message]) {
        var added: [Message] = []
        added.reserveCapacity(page.count)
        positions.reserveCapacity(positions.count + page.count)
        let end = messages.count
        for message in page {
            // An empty timeline knows no id: the first page (a chat opening) skips the lookup.
            if end > 0, let position = index(of: message.id) {
                // Positions from `end` on were given to this page's new messages below: an id repeated in the page.
                if position < end, messages[position].status < message.status {
                    messages[position] = message
                    revision += 1
                }
                continue
            }
            // Each new id gets the position it has if the page goes after every known message, in the order it
            // came; `positions` thereby also tells a repeated id (the first stays). The other cases rewrite them.
            if let earlier = positions.updateValue(base + end + added.count, forKey: message.id) {
                positions[message.id] = earlier
                continue
            }
            added.append(message)
        }
        guard !added.isEmpty else { return }
        revision += 1
        // Pages and the outbox's pending list come in compose order already: check before sorting.
        let sorted = added.indices.dropFirst().allSatisfy { Self.precedes(added[$0 - 1], added[$0]) }
        if !sorted { added.sort(by: Message.composeOrder) }
        if let last = messages.last, let first = added.first, !Message.composeOrder(last, first) {
            if let newest = added.last, let oldest = messages.first, Message.composeOrder(newest, oldest) {
                // An older page: it goes in front, and the positions already known stay valid.
                base -= added.count
                messages.insert(contentsOf: added, at: 0)
                for (offset, message) in added.enumerated() { positions[message.id] = base + offset }
            } else {
                messages = (messages + added).sorted(by: Message.composeOrder)
                reindex(from: 0)
            }
            return
        }
        // After every known message (or the first page): the positions given above hold unless it was sorted.
        messages.append(contentsOf: added)
        if !sorted { reindex(from: end) }
    }

    /// Removes the message with this id; returns the position it had.
    @discardableResult
    mutating func remove(_ id: MessageID) -> Int? {
        guard let index = positions.removeValue(forKey: id).map({ $0 - base }) else { return nil }
        revision += 1
        messages.remove(at: index)
        reindex(from: index)
        return index
    }

    private mutating func insert(_ message: Message, at index: Int) {
        messages.insert(message, at: index)
        reindex(from: index)
    }

    /// Positions from `start` on moved: write them again (nothing when the change was at the end).
    private mutating func reindex(from start: Int) {
        for position in start..<messages.count { positions[messages[position].id] = base + position }
    }

    /// `Message.composeOrder` without copying either message's id.
    private static func precedes(_ lhs: Message, _ rhs: Message) -> Bool {
        lhs.timestamp < rhs.timestamp || (lhs.timestamp == rhs.timestamp && lhs.id < rhs.id)
    }

    private func insertionIndex(for message: Message) -> Int {
        // The newest message is the usual one: check the end before searching.
        if let last = messages.last, Message.composeOrder(last, message) { return messages.count }
        return firstIndex(notBefore: message.cursor)
    }

    /// The first position whose message is not before `cursor` in compose order: O(log n).
    func firstIndex(notBefore cursor: MessageCursor) -> Int {
        var low = 0
        var high = messages.count
        while low < high {
            let middle = (low + high) / 2
            if messages[middle].cursor < cursor { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
