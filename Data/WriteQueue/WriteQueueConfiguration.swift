/// The limits and timings of an `OfflineWriteQueue`.
public struct WriteQueueConfiguration: Hashable, Sendable {
    /// How many writes may be queued; enqueueing beyond throws `StoreError.capacityReached` and evicts nothing.
    public var capacity: Int
    /// Writes older than this are removed (and reported) when the queue opens and before each sync.
    public var staleAfter: Duration
    /// How many times one sync retries a write after a retryable failure (so it makes at most this + 1 attempts).
    public var retriesPerSync: Int
    /// The wait before the first retry; each further retry waits twice as long (1 s, 2 s, 4 s by default).
    public var initialBackoff: Duration
    /// A fraction of each backoff added at random (0 for none), drawn from the queue's seeded generator.
    public var jitter: Double
    /// After this many failed attempts in all, a write is abandoned: removed and reported. Nil keeps it forever.
    public var maxAttempts: Int?
    /// The largest JSON payload accepted, in bytes; a larger one throws `StoreError.recordTooLarge`.
    public var maxPayloadBytes: Int
    /// While online, the wait before the queue syncs again by itself after a sync left a write whose retries it
    /// spent; it doubles after every such sync, up to `maxResyncDelay`, and starts over once a sync leaves none.
    public var resyncDelay: Duration
    /// The cap of `resyncDelay`'s growth.
    public var maxResyncDelay: Duration

    /// Creates a configuration; every default is the product's setting.
    public init(
        capacity: Int = 1_000, staleAfter: Duration = .seconds(7 * 86_400), retriesPerSync: Int = 3,
        initialBackoff: Duration = .seconds(1), jitter: Double = 0, maxAttempts: Int? = 10,
        maxPayloadBytes: Int = 256 * 1024, resyncDelay: Duration = .seconds(30),
        maxResyncDelay: Duration = .seconds(300)
    ) {
        self.capacity = capacity
        self.staleAfter = staleAfter
        self.retriesPerSync = retriesPerSync
        self.initialBackoff = initialBackoff
        self.jitter = jitter
        self.maxAttempts = maxAttempts
        self.maxPayloadBytes = maxPayloadBytes
        self.resyncDelay = resyncDelay
        self.maxResyncDelay = maxResyncDelay
    }

    /// The product's settings: 1,000 writes, 7 days, 3 retries from 1 s, 10 attempts, 256 KiB payloads, another
    /// sync 30 s after one that left a write behind, growing to at most 5 minutes.
    public static let standard = WriteQueueConfiguration()
}

extension WriteQueueConfiguration {
    /// The wait before retry number `retry` (0 for the first): `initialBackoff` doubled per retry, plus
    /// `jitter` × `unit` of it (`unit` in 0..<1 from the seeded generator).
    func backoff(beforeRetry retry: Int, unit: Double) -> Duration {
        let base = initialBackoff * (1 << min(retry, 30))
        return jitter > 0 ? base + base * (jitter * unit) : base
    }

    /// The wait before the queue's own follow-up sync number `round` (0 for the first): `resyncDelay` doubled per
    /// round, at most `maxResyncDelay`.
    func resyncDelay(round: Int) -> Duration {
        min(resyncDelay * (1 << min(round, 30)), maxResyncDelay)
    }
}
