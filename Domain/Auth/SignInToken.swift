import Foundation

/// A sign-in the backend granted: whose it is, the opaque token, and when it stops working.
public struct SignInToken: Codable, Hashable, Sendable {
    /// The signed-in user.
    public var user: UserID
    /// The bearer token the backend granted.
    public var token: String
    /// When the backend stops taking it.
    public var expiresAt: Date

    /// Creates a sign-in.
    public init(user: UserID, token: String, expiresAt: Date) {
        self.user = user
        self.token = token
        self.expiresAt = expiresAt
    }
}
