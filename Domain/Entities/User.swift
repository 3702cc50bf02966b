#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A user profile.
public struct User: Hashable, Codable, Sendable, Identifiable {
    /// Its id.
    public var id: UserID
    /// The name shown to others.
    public var displayName: String
    /// Creates a user.
    public init(id: UserID, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}
