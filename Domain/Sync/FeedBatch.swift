/// The answer to "what happened after my cursor": events in feed order, where the next request starts, and whether
/// more wait already.
public struct FeedBatch: Hashable, Codable, Sendable {
    /// The events, oldest first, each above the cursor asked with.
    public var events: [FeedEvent]
    /// The cursor to ask with next: the last event's position, or the cursor asked with when there were none.
    public var end: FeedPosition
    /// Whether more events follow at once (the batch was cut at its limit).
    public var hasMore: Bool
    /// Conversations whose events between the cursor and this batch were not all given: the backend cut them short
    /// (a Matrix timeline over its limit) and could not fill them in. The device forgets what it held of them that
    /// may now have a hole, and screens showing one load it again; their rows come as `conversation` events.
    public var gaps: [ConversationID]

    /// Creates a batch.
    public init(events: [FeedEvent], end: FeedPosition, hasMore: Bool, gaps: [ConversationID] = []) {
        self.events = events
        self.end = end
        self.hasMore = hasMore
        self.gaps = gaps
    }

    private enum CodingKeys: String, CodingKey {
        case events, end, hasMore, gaps
    }

    /// Reads a batch; one written before gaps existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        events = try container.decode([FeedEvent].self, forKey: .events)
        end = try container.decode(FeedPosition.self, forKey: .end)
        hasMore = try container.decode(Bool.self, forKey: .hasMore)
        gaps = try container.decodeIfPresent([ConversationID].self, forKey: .gaps) ?? []
    }

    /// Writes a batch; `gaps` only when there are some, so a batch without reads as it always did.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        try container.encode(end, forKey: .end)
        try container.encode(hasMore, forKey: .hasMore)
        if !gaps.isEmpty { try container.encode(gaps, forKey: .gaps) }
    }
}
