/// The limits of an `OfflineWriteQueue`; its waits are `RetryPolicy`s (`.writeQueueRetries`, `.writeQueueResyncs`).
public struct WriteQueueConfiguration: Hashable, Sendable {
    /// How many writes may be queued; enqueueing beyond throws `StoreError.capacityReached` and evicts nothing.
    public var capacity: Int
    /// Writes older than this are removed (and reported) when the queue opens and before each sync.
    public var staleAfter: Duration
    /// After this many failed attempts in all, a write is abandoned: removed and reported. Nil keeps it forever.
    public var maxAttempts: Int?
    /// The largest JSON payload accepted, in bytes; a larger one throws `StoreError.recordTooLarge`.
    public var maxPayloadBytes: Int

    /// Creates a configuration; every default is the product's setting.
    public init(
        capacity: Int = 1_000, staleAfter: Duration = .seconds(7 * 86_400), maxAttempts: Int? = 10,
        maxPayloadBytes: Int = 256 * 1024
    ) {
        self.capacity = capacity
        self.staleAfter = staleAfter
        self.maxAttempts = maxAttempts
        self.maxPayloadBytes = maxPayloadBytes
    }

    /// The product's settings: 1,000 writes, 7 days, 10 attempts, 256 KiB payloads.
    public static let standard = WriteQueueConfiguration()
}
