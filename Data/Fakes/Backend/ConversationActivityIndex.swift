import CourierData
import CourierDomain
import Foundation

/// The conversation list's order — most recent activity first, then id — kept sorted so that a page after a
/// `ConversationCursor` is found by binary search.
struct ConversationActivityIndex {
    struct Entry: Hashable {
        var lastActivity: Date
        var id: ConversationID

        /// Whether this entry comes before `other` in the list.
        func precedes(_ other: Entry) -> Bool {
            lastActivity != other.lastActivity ? lastActivity > other.lastActivity : id < other.id
        }
    }

    private(set) var entries: [Entry] = []

    /// The index of the first entry that does not precede `entry`.
    private func lowerBound(_ entry: Entry) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].precedes(entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Adds a conversation at its place.
    mutating func insert(_ entry: Entry) {
        entries.insert(entry, at: lowerBound(entry))
    }

    /// Moves a conversation whose activity changed from `old` to `new`.
    mutating func move(_ old: Entry, to new: Entry) {
        guard old != new else { return }
        let index = lowerBound(old)
        if index < entries.count, entries[index] == old { entries.remove(at: index) }
        insert(new)
    }

    /// The index of the first entry after `cursor` (0 when nil).
    func start(after cursor: ConversationCursor?) -> Int {
        guard let cursor else { return 0 }
        let entry = Entry(lastActivity: cursor.lastActivity, id: cursor.id)
        let index = lowerBound(entry)
        return index < entries.count && entries[index] == entry ? index + 1 : index
    }
}
