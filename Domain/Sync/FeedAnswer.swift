/// What a feed answers a request for events.
public enum FeedAnswer: Hashable, Sendable {
    /// The events after the cursor (none when the wait ran out with nothing new).
    case batch(FeedBatch)
    /// The cursor is older than what the backend keeps: events were forgotten, so the device starts over from a
    /// `FeedSnapshot` instead of missing them silently.
    case expired
}
