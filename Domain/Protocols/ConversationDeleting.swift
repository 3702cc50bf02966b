#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Deletes a conversation from the signed-in user's list, with everything this device keeps of it.
@MainActor
public protocol ConversationDeleting: AnyObject {
    /// Deletes `conversation` from the user's list, durably: its queued and failed messages, its cached pages and its
    /// receipts not yet sent go (a relaunch brings none back), and the backend is asked — through the offline write
    /// queue, so offline too — to hide it for this user alone (the other participants keep it). Returns the ids of
    /// the messages discarded. Throws `StoreError` when a store refuses the change.
    @discardableResult
    func deleteConversation(_ conversation: ConversationID) throws -> [MessageID]
}
