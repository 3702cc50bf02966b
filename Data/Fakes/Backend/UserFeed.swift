import CourierDomain

/// One user's event feed as the backend keeps it: the newest `retention` events, positioned 1, 2, 3 … for ever.
/// Appending is O(1); reading after a cursor is O(1 + events read); forgetting old events keeps the positions.
struct UserFeed {
    /// The events kept, oldest first; `kept[i]` is at position `firstKept + i`.
    private var kept: [FeedEvent] = []
    /// How many of `kept`'s first slots were dropped (the array is compacted now and then, not per event).
    private var dropped = 0
    /// The position of the oldest event kept (`end + 1` when none is).
    private(set) var firstKept: UInt64 = 1
    /// The newest event's position (0 before the first).
    private(set) var end: UInt64 = 0

    /// Appends `change` at the next position, forgetting the oldest event beyond `retention`.
    mutating func append(_ change: FeedEvent.Change, retention: Int) -> FeedEvent {
        end += 1
        let event = FeedEvent(position: FeedPosition(end), change: change)
        kept.append(event)
        if kept.count - dropped > retention {
            dropped += 1
            firstKept += 1
            // Compact once half the array is dead: amortized O(1) per event.
            if dropped > retention / 2 {
                kept.removeFirst(dropped)
                dropped = 0
            }
        }
        return event
    }

    /// Forgets every event kept; positions go on from `end`.
    mutating func trim() {
        kept = []
        dropped = 0
        firstKept = end + 1
    }

    /// How many events are kept.
    var count: Int { kept.count - dropped }

    /// Up to `limit` events after `cursor`, or nil when the cursor expired: events after it were forgotten, or it
    /// lies beyond the newest event (a position this feed never gave out, say from before the backend's data was
    /// reset).
    func events(after cursor: UInt64, limit: Int) -> FeedBatch? {
        // `cursor <= end` first: it bounds `cursor + 1`, which would trap for a cursor at UInt64.max.
        guard cursor <= end, cursor + 1 >= firstKept else { return nil }
        let start = dropped + Int(cursor + 1 - firstKept)
        let stop = min(kept.count, start + max(0, limit))
        let events = start < stop ? Array(kept[start..<stop]) : []
        return FeedBatch(
            events: events, end: events.last?.position ?? FeedPosition(cursor), hasMore: stop < kept.count)
    }
}
