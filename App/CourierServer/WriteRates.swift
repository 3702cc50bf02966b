import CourierDomain
import Foundation

/// Each signed-in user's write allowance: a bucket of `burst` writes that refills at `perSecond`, on the server's
/// clock. Keyed by users who presented a live token, so it holds at most one small entry per user who exists.
@MainActor
final class WriteRates {
    private let burst: Double
    private let perSecond: Double
    private var buckets: [UserID: (tokens: Double, at: Date)] = [:]

    /// Allows `burst` writes at once, then `perSecond`.
    init(burst: Int, perSecond: Int) {
        self.burst = Double(max(1, burst))
        self.perSecond = Double(max(1, perSecond))
    }

    /// Takes `count` writes from `user`'s allowance at `now`: nil when they fit (taken), else the whole seconds to
    /// wait before they would (nothing taken).
    func take(_ count: Int, by user: UserID, at now: Date) -> Int? {
        var bucket = buckets[user] ?? (burst, now)
        let elapsed = max(0, now.timeIntervalSince(bucket.at))
        bucket = (min(burst, bucket.tokens + elapsed * perSecond), now)
        let cost = Double(count)
        guard bucket.tokens >= cost else {
            buckets[user] = bucket
            return max(1, Int(((min(cost, burst) - bucket.tokens) / perSecond).rounded(.up)))
        }
        bucket.tokens -= cost
        buckets[user] = bucket
        return nil
    }
}
