import CourierData
import CourierDomain
import Foundation

/// Who is signed in on the server: grants opaque tokens for a user id and password, tells the user of a presented
/// token, revokes and expires tokens, and throttles guessing (docs/http-api.md, "Sessions").
///
/// - A token is 32 bytes from the system's random source (`SystemRandomNumberGenerator`: `getrandom` on Linux,
///   `arc4random` on Apple platforms), written as 64 hex digits. Only its SHA-256 is kept, in memory and in the
///   journal: a copy of the server's directory holds no usable token.
/// - A presented token is hashed and found by its digest; the digests are then compared in constant time, so how
///   long an answer takes tells nothing about how close a guess was.
/// - Failed sign-ins are counted per user id (known or not, so throttling tells nothing about who exists): after
///   `allowedFailures` in a row, every attempt for that id is throttled until a lockout passes — `firstLockout`,
///   doubling with each further lockout up to `longestLockout`. A success clears the count.
@MainActor
public final class SignInAuthority {
    /// How a sign-in went.
    public enum SignIn: Equatable, Sendable {
        /// Signed in: the token to present, and when it expires.
        case granted(token: String, expiresAt: Date)
        /// Unknown user or wrong password (the same answer for both).
        case refused
        /// Too many failures for this user id: ask again after this many whole seconds.
        case throttled(retryAfter: Int)
    }

    /// Failed sign-ins in a row before a lockout.
    public static let allowedFailures = 5
    /// The first lockout.
    public static let firstLockout: TimeInterval = 30
    /// The longest lockout.
    public static let longestLockout: TimeInterval = 900
    /// At most this many user ids' failure counts are kept; beyond it, counts of ids not locked out are forgotten.
    static let trackedFailureLimit = 100_000

    /// How long a token lives.
    public let tokenLifetime: Duration
    /// Live sessions now (granted, not revoked, not expired).
    public var liveSessions: Int { grants.values.filter { $0.expiresAt > clock.now }.count }

    private let clock: any Clock
    private let journal: SessionJournal
    private let passwordMatches: @MainActor (UserID, String) -> Bool
    private var grants: [[UInt8]: SessionGrant]
    private var failures: [UserID: Failures] = [:]

    private struct Failures {
        var inARow = 0
        var lockouts = 0
        var lockedUntil: Date?
    }

    /// Opens the sessions journal at `path`. `passwordMatches` says whether a password is a user's (false for an
    /// unknown user).
    public init(
        path: String, fileSystem: any FileSystem = PosixFileSystem(), clock: any Clock, tokenLifetime: Duration,
        logger: Logger = .silent, passwordMatches: @escaping @MainActor (UserID, String) -> Bool
    ) throws {
        self.clock = clock
        self.tokenLifetime = tokenLifetime
        self.passwordMatches = passwordMatches
        journal = try SessionJournal(path: path, fileSystem: fileSystem, logger: logger)
        grants = try journal.liveGrants(at: clock.now)
    }

    /// Signs `user` in with `password`. Throws when the grant cannot be journaled (nothing is granted then).
    public func signIn(_ user: UserID, password: String) throws -> SignIn {
        let now = clock.now
        if let until = failures[user]?.lockedUntil {
            if until > now { return .throttled(retryAfter: max(1, Int((until.timeIntervalSince(now)).rounded(.up)))) }
            failures[user]?.lockedUntil = nil
        }
        guard passwordMatches(user, password) else {
            noteFailure(of: user, at: now)
            return .refused
        }
        failures[user] = nil
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = SHA256.hexString(secret)
        let grant = SessionGrant(
            tokenHash: SHA256.digest(token.utf8), user: user,
            expiresAt: now.addingTimeInterval(tokenLifetime.timeInterval))
        try journal.grant(grant)
        grants[grant.tokenHash] = grant
        return .granted(token: token, expiresAt: grant.expiresAt)
    }

    /// The user signed in with `token`; nil for a token that is unknown, revoked or expired.
    public func user(presenting token: String) -> UserID? {
        guard let grant = liveGrant(presenting: token) else { return nil }
        return grant.user
    }

    /// Ends the session of `token` (sign-out); false when it was not live. Throws when it cannot be journaled.
    @discardableResult
    public func revoke(_ token: String) throws -> Bool {
        guard let grant = liveGrant(presenting: token) else { return false }
        try journal.end(grant.tokenHash)
        grants[grant.tokenHash] = nil
        return true
    }

    /// Makes `token` expire now, as its lifetime running out would. A development aid (the driver's `auth expire`);
    /// the server answers it only for the token's own holder.
    @discardableResult
    public func expire(_ token: String) throws -> Bool { try revoke(token) }

    /// The time on the server's clock.
    public var now: Date { clock.now }

    /// Closes the journal.
    public func close() { journal.close() }

    private func liveGrant(presenting token: String) -> SessionGrant? {
        let digest = SHA256.digest(token.utf8)
        guard let grant = grants[digest], SHA256.constantTimeEqual(grant.tokenHash, digest) else { return nil }
        guard grant.expiresAt > clock.now else {
            grants[digest] = nil
            return nil
        }
        return grant
    }

    private func noteFailure(of user: UserID, at now: Date) {
        if failures[user] == nil, failures.count >= Self.trackedFailureLimit {
            failures = failures.filter { ($0.value.lockedUntil ?? .distantPast) > now }
        }
        var record = failures[user] ?? Failures()
        record.inARow += 1
        if record.inARow >= Self.allowedFailures {
            let lockout = min(Self.longestLockout, Self.firstLockout * pow(2, Double(min(record.lockouts, 16))))
            record.lockouts += 1
            record.inARow = 0
            record.lockedUntil = now.addingTimeInterval(lockout)
        }
        failures[user] = record
    }
}
