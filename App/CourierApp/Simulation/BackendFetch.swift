import CourierDomain
import CourierFakes
import CourierOneShot

/// A fresh fetch of what one user should see, read through the backend's admin API — never through the app, so a
/// cache or a view model cannot agree with itself: the user's conversations in list order with their previews and
/// unread counts, and the messages of the chats asked for with the statuses their senders see.
struct BackendFetch: Sendable {
    /// Whose view it is.
    let user: UserID
    /// The user's conversations as the backend gives them to the user, most recent activity first.
    let conversations: [Conversation]
    /// The messages of each chat asked for, in compose order, as pages carry them.
    let messages: [ConversationID: [Message]]
    /// Each of the user's conversations' newest message in compose order (`Message.composeOrder`): the bottom row
    /// of its chat, and the backend's last message, which keeps the same order.
    let newest: [ConversationID: Message]

    /// A fetch from its parts; `newest` defaults to each conversation's `lastMessage`.
    init(
        user: UserID, conversations: [Conversation], messages: [ConversationID: [Message]],
        newest: [ConversationID: Message]? = nil
    ) {
        self.user = user
        self.conversations = conversations
        self.messages = messages
        self.newest =
            newest
            ?? Dictionary(
                conversations.compactMap { conversation in conversation.lastMessage.map { (conversation.id, $0) } },
                uniquingKeysWith: { first, _ in first })
    }

    /// Fetches `user`'s conversations and the messages of `chats` from `backend`.
    @MainActor
    init(backend: InMemoryChatBackend, user: UserID, chats: [ConversationID]) {
        let conversations = backend.conversationIDs.compactMap { backend.conversation($0, for: user) }
            .filter { $0.participantIDs.contains(user) }
        let newest = conversations.compactMap { conversation in
            backend.messages(in: conversation.id).max(by: Message.composeOrder).map { (conversation.id, $0) }
        }
        self.init(
            user: user, conversations: conversations,
            messages: Dictionary(
                chats.map { ($0, backend.messagesWithStatuses(in: $0)) }, uniquingKeysWith: { first, _ in first }),
            newest: Dictionary(newest, uniquingKeysWith: { first, _ in first }))
    }
}
