#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything Courier asks of a backend, in one: its messages, conversations, users and event feed, and the writes
/// the offline write queue makes (a display name, hiding a conversation, presence). What a composition root hands to
/// a `CourierClient` and its write executors; Courier's own HTTP client and its Matrix client are two of them, an
/// app's own backend another.
public protocol ChatBackend: MessageRepository, ConversationRepository, UserRepository, EventFeed {
    /// Changes `user`'s display name (only the signed-in user's own may be changed).
    func updateDisplayName(of user: UserID, to name: String) async throws
    /// Tells the backend whether this user's device is connected: what others see under a chat's title.
    func setPresence(online: Bool) async throws
    /// Hides `conversation` from the signed-in user's list; the others keep it, and a new message in it shows it
    /// again.
    func hideConversation(_ conversation: ConversationID) async throws
}
