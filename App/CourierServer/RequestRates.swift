import CourierData
import Foundation

/// Each bearer token's request allowance: a bucket of `burst` requests that refills at `perSecond`, on the
/// monotonic clock, checked on the connection's thread before anything of the request is read (its body decoded,
/// its route parsed) or the main actor is asked for anything. A client that asks faster than any app does is answered
/// 429 with `Retry-After` at the cost of a table lookup, not at the cost of its request.
///
/// Keyed by the token as presented (live or not: a forged one is refused 401 later, once its turn comes), in a
/// table of at most `capacity` entries: past it, the entry used least recently is dropped, which only gives its token
/// a full bucket again. Safe from any thread.
final class RequestRates: @unchecked Sendable {
    private let burst: Double
    private let perSecond: Double
    private let lock = NSLock()
    /// The buckets by token, least recently used dropped first: O(1) a request, however many tokens come.
    private var buckets: LRUCache<String, (tokens: Double, at: ContinuousClock.Instant)>

    /// Allows `burst` requests at once per token, then `perSecond`, remembering at most `capacity` tokens.
    init(burst: Int, perSecond: Int, capacity: Int = 4_096) {
        self.burst = Double(max(1, burst))
        self.perSecond = Double(max(1, perSecond))
        buckets = LRUCache(capacity: max(1, capacity))
    }

    /// Takes one request from `token`'s allowance at `now`: nil when it fits (taken), else the whole seconds to wait.
    func take(by token: String, at now: ContinuousClock.Instant = .now) -> Int? {
        lock.withLock {
            var bucket = buckets.value(for: token) ?? (burst, now)
            let elapsed = bucket.at.duration(to: now)
            let seconds = max(0, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            bucket = (min(burst, bucket.tokens + seconds * perSecond), now)
            guard bucket.tokens >= 1 else {
                buckets.set(bucket, for: token)
                return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets.set(bucket, for: token)
            return nil
        }
    }
}
