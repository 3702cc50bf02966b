#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the conversation list continues: after this activity time and id.
public struct ConversationCursor: Hashable, Codable, Sendable {
    /// Activity time of the last conversation seen.
    public var lastActivity: Date
    /// Id of the last conversation seen.
    public var id: ConversationID
    /// Creates a cursor.
    public init(lastActivity: Date, id: ConversationID) {
        self.lastActivity = lastActivity
        self.id = id
    }
}
