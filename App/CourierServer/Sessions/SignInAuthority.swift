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
/// - Failed sign-ins are counted per client and user id (known or not, so throttling tells nothing about who
///   exists), per client and across the server (`SignInThrottle`): after `allowedFailures` in a row, that client's
///   attempts for that id are throttled until a lockout passes — `firstLockout`, doubling with each further lockout
///   up to `longestLockout` — while the right password from another client still works. A success clears the count.
/// - A user holds at most `maxSessionsPerUser` live sessions: a sign-in past it ends the one that expires first.
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

    /// Failed sign-ins in a row, of one client for one user id, before a lockout.
    public static let allowedFailures = SignInThrottle.allowedFailures
    /// The first lockout.
    public static let firstLockout: TimeInterval = SignInThrottle.firstLockout
    /// The longest lockout.
    public static let longestLockout: TimeInterval = SignInThrottle.longestLockout
    /// Live sessions one user may hold; a sign-in past it ends the session that expires first.
    public static let maxSessionsPerUser = 32

    /// How long a token lives.
    public let tokenLifetime: Duration
    /// Live sessions now (granted, not revoked, not expired).
    public var liveSessions: Int { grants.values.filter { $0.expiresAt > clock.now }.count }

    private let clock: any Clock
    private let journal: SessionJournal
    private let passwordMatches: @MainActor (UserID, String) -> Bool
    private var grants: [[UInt8]: SessionGrant]
    private let throttle = SignInThrottle()

    /// Failure counts remembered now (each a 32-byte digest and a few numbers, whatever the ids sent).
    public var trackedFailures: Int { throttle.trackedCount }

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

    /// Signs `user` in with `password`, tried by `client` (the peer's address; what failures are counted by). Throws
    /// when the grant cannot be journaled (nothing is granted then).
    public func signIn(_ user: UserID, password: String, client: String = "") throws -> SignIn {
        let now = clock.now
        if let wait = throttle.wait(for: user, from: client, at: now) { return .throttled(retryAfter: wait) }
        guard passwordMatches(user, password) else {
            throttle.noteFailure(of: user, from: client, at: now)
            return .refused
        }
        throttle.noteSuccess(of: user, from: client)
        try endOldestSessions(of: user, at: now)
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

    /// Ends `user`'s sessions that expire first until one more fits under `maxSessionsPerUser`.
    private func endOldestSessions(of user: UserID, at now: Date) throws {
        let live = grants.values.filter { $0.user == user && $0.expiresAt > now }.sorted { $0.expiresAt < $1.expiresAt }
        for grant in live.prefix(max(0, live.count - Self.maxSessionsPerUser + 1)) {
            try journal.end(grant.tokenHash)
            grants[grant.tokenHash] = nil
        }
    }
}
