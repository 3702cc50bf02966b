/// How much the outbox holds. A message that does not fit is refused with a clear error; none is ever evicted.
public struct OutboxLimits: Hashable, Sendable {
    /// The largest stored form of one message, in bytes (its encoded record); larger ones throw
    /// `StoreError.recordTooLarge`.
    public var maxMessageBytes: Int
    /// How many messages may be pending at once; one more throws `StoreError.capacityReached`.
    public var capacity: Int

    /// Creates limits: by default 64 KiB per message and 20,000 messages.
    public init(maxMessageBytes: Int = 64 * 1024, capacity: Int = 20_000) {
        self.maxMessageBytes = maxMessageBytes
        self.capacity = capacity
    }
}
