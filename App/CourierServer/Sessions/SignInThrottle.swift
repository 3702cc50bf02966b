import CourierDomain
import Foundation

/// Who may try a password now: failed sign-ins counted per client and user id together, per client across ids, and
/// across the server, so that guessing is slow and yet nobody can lock a user out by guessing on their behalf.
///
/// - A client (the peer's address) and a user id: after `allowedFailures` failures in a row, that client's attempts
///   for that id are throttled for a lockout — `firstLockout`, doubling with each further lockout up to
///   `longestLockout`. Another client's attempts for the same id are not: the owner signing in from a client that has
///   not been guessing still gets in.
/// - A client across every id: `allowedClientFailures` failures in a row lock that client out of every id the same
///   way (spraying one password over many ids is slow too).
/// - The server: more than `globalFailuresPerMinute` failures in a minute throttle every client that has failed
///   recently until the minute ends; a client that has not failed meanwhile still gets through.
///
/// Every remembered thing has a byte bound: entries are keyed by a 32-byte SHA-256 of the client and the id as sent
/// (never the id itself, which could be megabytes), at most `trackedLimit` of each kind. A full table is pruned to
/// half at once — the entries not locked out first, then the lockouts that end soonest — so a flood of clients
/// never seen before costs each failure a constant share of one pass, not a pass over the whole table.
@MainActor
final class SignInThrottle {
    /// Failed sign-ins in a row, for one client and one id, before a lockout.
    static let allowedFailures = 5
    /// Failed sign-ins in a row, for one client across every id, before that client is locked out.
    static let allowedClientFailures = 20
    /// Failures across the server in one minute before every client that failed meanwhile is throttled.
    static let globalFailuresPerMinute = 300
    /// The first lockout.
    static let firstLockout: TimeInterval = 30
    /// The longest lockout.
    static let longestLockout: TimeInterval = 900
    /// At most this many entries of each kind are kept (`init(trackedLimit:)`, 100,000 unless a test says less).
    let trackedLimit: Int

    /// A throttle remembering at most `trackedLimit` entries of each kind.
    init(trackedLimit: Int = 100_000) { self.trackedLimit = max(2, trackedLimit) }

    private struct Failures {
        var inARow = 0
        var lockouts = 0
        var lockedUntil: Date?
        var lastFailure: Date = .distantPast
    }

    private var pairs: [[UInt8]: Failures] = [:]
    private var clients: [[UInt8]: Failures] = [:]
    private var windowStart: Date = .distantPast
    private var failuresInWindow = 0

    /// Entries remembered now (each a 32-byte key and a few numbers).
    var trackedCount: Int { pairs.count + clients.count }
    /// How many times a full table was pruned.
    private(set) var prunes = 0

    /// The whole seconds `client` must wait before trying `user` again at `now`; nil when it may try now.
    func wait(for user: UserID, from client: String, at now: Date) -> Int? {
        let clientKey = Self.key(client, nil)
        var longest: Date?
        for until in [pairs[Self.key(client, user)]?.lockedUntil, clients[clientKey]?.lockedUntil].compactMap({ $0 })
        where until > now {
            longest = max(longest ?? until, until)
        }
        if now.timeIntervalSince(windowStart) < 60, failuresInWindow >= Self.globalFailuresPerMinute,
            let last = clients[clientKey]?.lastFailure, last >= windowStart
        {
            longest = max(longest ?? .distantPast, windowStart.addingTimeInterval(60))
        }
        guard let longest else { return nil }
        return max(1, Int(longest.timeIntervalSince(now).rounded(.up)))
    }

    /// Counts a failed attempt of `client` for `user` at `now`.
    func noteFailure(of user: UserID, from client: String, at now: Date) {
        if now.timeIntervalSince(windowStart) >= 60 {
            windowStart = now
            failuresInWindow = 0
        }
        failuresInWindow += 1
        prunes += Self.note(&pairs, Self.key(client, user), allowed: Self.allowedFailures, at: now, limit: trackedLimit)
        prunes += Self.note(
            &clients, Self.key(client, nil), allowed: Self.allowedClientFailures, at: now, limit: trackedLimit)
    }

    /// Clears the count of `client` for `user` and across ids (a success).
    func noteSuccess(of user: UserID, from client: String) {
        pairs[Self.key(client, user)] = nil
        if var record = clients[Self.key(client, nil)] {
            record.inARow = 0
            clients[Self.key(client, nil)] = record
        }
    }

    /// Counts a failure under `key`; returns 1 when the table had to be pruned first, else 0.
    private static func note(
        _ table: inout [[UInt8]: Failures], _ key: [UInt8], allowed: Int, at now: Date, limit: Int
    ) -> Int {
        let pruned = table[key] == nil && table.count >= limit
        if pruned { prune(&table, at: now, limit: limit) }
        var record = table[key] ?? Failures()
        record.inARow += 1
        record.lastFailure = now
        if record.inARow >= allowed {
            record.lockedUntil = now.addingTimeInterval(
                min(longestLockout, firstLockout * pow(2, Double(min(record.lockouts, 16)))))
            record.lockouts += 1
            record.inARow = 0
        }
        table[key] = record
        return pruned ? 1 : 0
    }

    /// Leaves at most half of `limit` entries: the lockouts still running that end last. Forgetting an entry that is
    /// not locked out gives its client back a few guesses; forgetting a lockout ends it early — only when more
    /// clients than half the table are locked out at once, and the server's ceiling still holds them.
    private static func prune(_ table: inout [[UInt8]: Failures], at now: Date, limit: Int) {
        table = table.filter { ($0.value.lockedUntil ?? .distantPast) > now }
        guard table.count > limit / 2 else { return }
        let kept = table.sorted { ($0.value.lockedUntil ?? now) > ($1.value.lockedUntil ?? now) }.prefix(limit / 2)
        table = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// A fixed-size key for `client` and `user` (the client alone when nil): the id as sent may be any length.
    private static func key(_ client: String, _ user: UserID?) -> [UInt8] {
        var bytes = Array(client.utf8)
        if let user {
            bytes.append(0)
            bytes += user.rawValue.utf8
        }
        return SHA256.digest(bytes)
    }
}
