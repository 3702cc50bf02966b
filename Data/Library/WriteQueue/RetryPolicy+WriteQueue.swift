extension RetryPolicy {
    /// The write queue's retries within one sync: 3, after 1 s, 2 s and 4 s, without jitter (a sync retries one
    /// write at a time, so there is no crowd to spread).
    public static let writeQueueRetries = RetryPolicy(
        initialDelay: .seconds(1), multiplier: 2, maxRetries: 3, jitter: 0)

    /// The write queue's own follow-up syncs while online, after a sync left a write whose retries it spent: 30 s
    /// after it, the wait doubling per such sync up to 5 minutes, starting over once a sync leaves none behind.
    public static let writeQueueResyncs = RetryPolicy(
        initialDelay: .seconds(30), multiplier: 2, maxRetries: .max, jitter: 0, maxDelay: .seconds(300))
}
