/// The answer to "what happened after my cursor": events in feed order, where the next request starts, and whether
/// more wait already.
public struct FeedBatch: Hashable, Codable, Sendable {
    /// The events, oldest first, each above the cursor asked with.
    public var events: [FeedEvent]
    /// The cursor to ask with next: the last event's position, or the cursor asked with when there were none.
    public var end: FeedPosition
    /// Whether more events follow at once (the batch was cut at its limit).
    public var hasMore: Bool

    /// Creates a batch.
    public init(events: [FeedEvent], end: FeedPosition, hasMore: Bool) {
        self.events = events
        self.end = end
        self.hasMore = hasMore
    }
}
