import CourierData
import CourierDomain
import Foundation

extension InMemoryChatBackend {
    // MARK: - Deleting a message

    /// Whether the message `id` of `conversation` was stored and then deleted by its sender: it is never stored
    /// again.
    public func isDeleted(_ id: MessageID, in conversation: ConversationID) -> Bool {
        deletedMessages[MessageKey(conversation: conversation, id: id)] != nil
    }

    /// Deletes the message `id` of `conversation` for everyone, as its sender `user` asks from any of their devices:
    /// it leaves every page and preview, every participant's feed hears of it, and its id is never stored again (a
    /// late resend is answered as stored). Not a counted request, like a peer's send. Throws `.notFound` for an
    /// unknown conversation, one `user` is not in, or a message it does not hold; `.forbidden` when `user` did not
    /// send it; `.server(code: 500)` when the journal refuses the write. Deleting a deleted message changes nothing.
    public func deleteMessage(_ id: MessageID, in conversation: ConversationID, by user: UserID)
        throws(DeliveryError)
    {
        try checkSignIn()
        guard let stored = storedConversation(conversation), stored.participantIDs.contains(user) else {
            throw .notFound
        }
        if deletedMessages[MessageKey(conversation: conversation, id: id)] != nil { return }
        guard let message = message(id, in: conversation) else { throw .notFound }
        guard message.senderID == user else { throw .forbidden }
        let event = BackendEvent.messageDeleted(
            MessageDeletion(conversationID: conversation, messageID: id, deletedBy: user))
        try record([event])
        replay(event)
    }
}
