import CourierData
import CourierDomain
import CourierStore
import Foundation

/// The sign-in an `HTTPChatClient` presents: kept in a `TokenStore`, granted once by itself when there is none (or
/// the kept one has run out) and the client knows a password, and never again by itself after the server refused
/// it — from then on requests go out with the refused token, answer 401, and sending stays paused until the app
/// signs in again (`HTTPChatClient.signIn()`). Concurrent requests that find no token share one sign-in.
///
/// A token kept from an earlier launch is trusted only until the server answers: refused before any request with
/// it went through (the server forgot it, or it is another server's), it is dropped and the client signs in anew
/// once, as it would with no token at all. Refused after it worked, it expired: sending pauses.
actor HTTPSignIn {
    private let user: UserID
    private let store: any TokenStore
    private let logger: Logger
    private var current: SignInToken?
    private var pending: Task<SignInToken, any Error>?
    private var signsInByItself: Bool
    /// Whether a request with `current` went through (false for a token kept from an earlier launch until then).
    private var confirmed = false

    init(user: UserID, store: any TokenStore, canSignIn: Bool, logger: Logger) {
        self.user = user
        self.store = store
        self.logger = logger
        signsInByItself = canSignIn
        do {
            if let kept = try store.load(), kept.user == user { current = kept }
        } catch {
            logger.log(.warning, "sign-in: the kept token could not be read (\(error)); signing in anew")
        }
    }

    /// The token to present: the kept one, else a new one from `grant` when the client may sign in by itself; nil
    /// when there is none (the request then answers 401).
    func token(granting grant: @escaping @Sendable () async throws -> SignInToken) async throws -> String? {
        if let current, !(signsInByItself && current.expiresAt <= Date()) { return current.token }
        guard signsInByItself else { return current?.token }
        return try await signIn(granting: grant).token
    }

    /// Signs in with `grant` (one at a time: a caller that finds one under way waits for it), keeps the token, and
    /// lets the client sign in by itself again should it lose it.
    func signIn(granting grant: @escaping @Sendable () async throws -> SignInToken) async throws -> SignInToken {
        if let pending { return try await pending.value }
        let task = Task { try await grant() }
        pending = task
        defer { pending = nil }
        let token = try await task.value
        current = token
        confirmed = true
        signsInByItself = true
        do {
            try store.save(token)
        } catch {
            logger.log(.warning, "sign-in: the token could not be kept (\(error)); it lasts until the app quits")
        }
        return token
    }

    /// The server took `token`: it is live.
    func accepted(_ token: String?) {
        if token != nil, token == current?.token { confirmed = true }
    }

    /// The server refused `token` (401). Returns true when it was a kept token never confirmed and the client may
    /// sign in by itself: it is dropped, and the caller asks again (signing in anew). Otherwise the client stops
    /// signing in by itself until the app signs in again, and returns false.
    func refused(_ token: String?) -> Bool {
        guard token == current?.token else { return false }
        if let token, !confirmed, signsInByItself {
            _ = token
            logger.log(.info, "sign-in: the kept token was refused before it was used; signing in anew")
            current = nil
            return true
        }
        signsInByItself = false
        return false
    }

    /// Forgets the sign-in (after a sign-out).
    func forget() {
        current = nil
        confirmed = false
        signsInByItself = false
        do {
            try store.erase()
        } catch {
            logger.log(.warning, "sign-in: the kept token could not be erased (\(error))")
        }
    }
}

/// A `TokenStore` in memory: the sign-in lasts as long as the process.
package final class MemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var token: SignInToken?

    /// An empty store.
    package init() {}

    package func load() -> SignInToken? { lock.withLock { token } }
    package func save(_ token: SignInToken) { lock.withLock { self.token = token } }
    package func erase() { lock.withLock { token = nil } }
}
