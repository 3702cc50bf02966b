/// A map that remembers the order of use and drops the least recently used entries past its capacity.
///
/// A dictionary finds an entry's slot; the slots form a doubly linked list (by index, in one array, so no node is a
/// separate allocation) from the most to the least recently used. Every operation is O(1).
package struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value?
        var newer: Int
        var older: Int
    }

    private static var none: Int { -1 }

    /// How many entries it keeps; setting one more evicts the least recently used.
    package let capacity: Int
    private var nodes: [Node] = []
    private var freeSlots: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest = LRUCache.none
    private var oldest = LRUCache.none

    /// Creates an empty cache holding at most `capacity` entries (at least one).
    package init(capacity: Int) { self.capacity = max(1, capacity) }

    // MARK: - Reading

    /// How many entries it holds.
    package var count: Int { slots.count }

    /// The value for `key`, marking it as just used.
    package mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return nodes[slot].value
    }

    /// The value for `key`, leaving the order of use alone.
    package func peek(_ key: Key) -> Value? {
        slots[key].flatMap { nodes[$0].value }
    }

    /// The keys, least recently used first.
    package var keysLeastRecentFirst: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = oldest
        while slot != Self.none {
            keys.append(nodes[slot].key)
            slot = nodes[slot].newer
        }
        return keys
    }

    // MARK: - Writing

    /// Stores `value` for `key` as the most recently used; returns the entries evicted to stay within capacity.
    @discardableResult
    package mutating func set(_ value: Value, for key: Key) -> [(key: Key, value: Value)] {
        if let slot = slots[key] {
            nodes[slot].value = value
            moveToFront(slot)
            return []
        }
        let node = Node(key: key, value: value, newer: Self.none, older: Self.none)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        slots[key] = slot
        link(slot)
        var evicted: [(key: Key, value: Value)] = []
        while count > capacity, let entry = removeLeastRecent() { evicted.append(entry) }
        return evicted
    }

    /// Removes the entry for `key`; returns its value.
    @discardableResult
    package mutating func removeValue(for key: Key) -> Value? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        return release(slot)
    }

    /// Removes the least recently used entry; nil when empty.
    package mutating func removeLeastRecent() -> (key: Key, value: Value)? {
        guard oldest != Self.none else { return nil }
        let slot = oldest
        let key = nodes[slot].key
        slots.removeValue(forKey: key)
        guard let value = release(slot) else { return nil }
        return (key, value)
    }

    /// Removes everything.
    package mutating func removeAll() {
        nodes.removeAll()
        freeSlots.removeAll()
        slots.removeAll()
        newest = Self.none
        oldest = Self.none
    }

    // MARK: - List

    private mutating func release(_ slot: Int) -> Value? {
        unlink(slot)
        let value = nodes[slot].value
        nodes[slot].value = nil  // drops the value now, not when the slot is reused
        freeSlots.append(slot)
        return value
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        link(slot)
    }

    private mutating func link(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = Self.none
        if newest != Self.none { nodes[newest].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let newer = nodes[slot].newer
        let older = nodes[slot].older
        if newer != Self.none { nodes[newer].older = older } else { newest = older }
        if older != Self.none { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = Self.none
        nodes[slot].older = Self.none
    }
}
