import CourierDomain
import CourierStore
import Foundation

// MARK: - Sign-in (docs/http-api.md, "Sessions")

extension HTTPWire {
    /// `POST /sessions`: who signs in, and their password.
    public struct SignInBody: Codable, Sendable {
        /// The user signing in.
        public var userID: UserID
        /// Their password.
        public var password: String
        /// Creates a body.
        public init(userID: UserID, password: String) {
            self.userID = userID
            self.password = password
        }
    }

    /// The answer to a sign-in: an opaque bearer token and the instant it stops working.
    public struct SessionBody: Codable, Sendable {
        /// Sent as `Authorization: Bearer TOKEN` on every other request.
        public var token: String
        /// When the token expires; a request after it answers 401.
        public var expiresAt: Date
        /// Creates a body.
        public init(token: String, expiresAt: Date) {
            self.token = token
            self.expiresAt = expiresAt
        }
    }

    /// The header a throttled answer (429) carries: whole seconds to wait before asking again.
    public static let retryAfterHeader = "Retry-After"
}
