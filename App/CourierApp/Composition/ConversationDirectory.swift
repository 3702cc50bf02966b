import CourierDomain
import CourierOneShot

/// Where the app learns about a conversation it is sent to by id before it has fetched it — what a notification's or
/// a link's payload carries: the conversation, and the names of its participants. The app is handed one when it is
/// composed; it reads everything else through its repositories and its user directory.
@MainActor
public protocol ConversationDirectory: AnyObject {
    /// The conversation with this id, if there is one.
    func conversation(_ id: ConversationID) -> Conversation?
    /// The display name of `user`, if known.
    func displayName(of user: UserID) -> String?
}
