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
/// (never the id itself, which could be megabytes), at most `trackedLimit` of each kind.
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
    /// At most this many entries of each kind are kept; beyond it, those not locked out are forgotten.
    static let trackedLimit = 100_000

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
        Self.note(&pairs, Self.key(client, user), allowed: Self.allowedFailures, at: now)
        Self.note(&clients, Self.key(client, nil), allowed: Self.allowedClientFailures, at: now)
    }

    /// Clears the count of `client` for `user` and across ids (a success).
    func noteSuccess(of user: UserID, from client: String) {
        pairs[Self.key(client, user)] = nil
        if var record = clients[Self.key(client, nil)] {
            record.inARow = 0
            clients[Self.key(client, nil)] = record
        }
    }

    private static func note(_ table: inout [[UInt8]: Failures], _ key: [UInt8], allowed: Int, at now: Date) {
        if table[key] == nil, table.count >= trackedLimit {
            table = table.filter { ($0.value.lockedUntil ?? .distantPast) > now }
        }
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
