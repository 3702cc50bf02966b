#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether a user is reachable right now.
public struct Presence: Hashable, Codable, Sendable {
    /// Whom it describes.
    public var userID: UserID
    /// Online now.
    public var isOnline: Bool
    /// Last time seen online.
    public var lastSeen: Date?
    /// Creates a presence record.
    public init(userID: UserID, isOnline: Bool, lastSeen: Date? = nil) {
        self.userID = userID
        self.isOnline = isOnline
        self.lastSeen = lastSeen
    }
}
