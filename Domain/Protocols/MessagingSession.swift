#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a screen needs from the data side of an app, in one value: the signed-in user, the outbox, the message and
/// conversation repositories (cached, with the retry policy), the user directory, connectivity, the clock and the
/// logger. `CourierClient` (Data) is one; view models are made from a session in a line each
/// (docs/architecture.md).
///
/// The outbox and the user directory are the session's own types (`CourierClient`'s are `DurableOutbox` and
/// `UserCache`), so a session names each of its parts once; a screen sees them as `any MessageOutbox` and
/// `any EditableUserDirectory`.
@MainActor
public protocol MessagingSession: AnyObject {
    /// The session's outbox.
    associatedtype Outbox: MessageOutbox
    /// The session's user directory.
    associatedtype Users: EditableUserDirectory

    /// The signed-in user.
    var currentUser: UserID { get }
    /// The message lifecycle service.
    var outbox: Outbox { get }
    /// Where chats load their pages from (answered from the cache when the backend cannot be reached).
    var messages: any MessageRepository { get }
    /// Where the conversation list loads its pages from (answered from the cache when the backend cannot be reached).
    var conversations: any ConversationRepository { get }
    /// Users' names and presence, cached; the profile screen shows its own edits there at once.
    var users: Users { get }
    /// Whether the device is online.
    var connectivity: any ConnectivityMonitor { get }
    /// The clock every timer and task of the session runs on.
    var clock: any Clock { get }
    /// Where view models report what they do.
    var logger: Logger { get }
    /// What arrives from others: live updates, read markers, the chats on screen.
    var sync: any LiveSync { get }
    /// How a conversation is deleted from the list; nil when the app cannot delete one.
    var conversationDeletion: (any ConversationDeleting)? { get }
}

extension MessagingSession {
    /// A session without an event feed hears nothing.
    public var sync: any LiveSync { SilentSync() }

    /// A session that cannot delete conversations offers no deletion.
    public var conversationDeletion: (any ConversationDeleting)? { nil }
}
