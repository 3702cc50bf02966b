#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A sign-in the backend granted: whose it is, the opaque token, when it stops working, and the device it names.
public struct SignInToken: Codable, Hashable, Sendable {
    /// The signed-in user.
    public var user: UserID
    /// The bearer token the backend granted.
    public var token: String
    /// When the backend stops taking it.
    public var expiresAt: Date
    /// The device the backend knows this sign-in as, when it has such a thing (a Matrix homeserver's `device_id`): a
    /// backend whose duplicate protection is per device forgets a device's sends when it is gone, so a later sign-in
    /// asks for the same device again. Nil for a backend without devices.
    public var deviceID: String?
    /// When the sign-in was granted, when known: what a device sent before it may lie outside the backend's memory.
    public var grantedAt: Date?

    /// Creates a sign-in.
    public init(user: UserID, token: String, expiresAt: Date, deviceID: String? = nil, grantedAt: Date? = nil) {
        self.user = user
        self.token = token
        self.expiresAt = expiresAt
        self.deviceID = deviceID
        self.grantedAt = grantedAt
    }
}
