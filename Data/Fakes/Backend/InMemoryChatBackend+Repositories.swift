import CourierData
import CourierDomain
import Foundation

// MARK: - MessageRepository

extension InMemoryChatBackend: MessageRepository {
    /// Stores one message (or answers with the stored one when its id is known with the same content). Throws
    /// `.unauthorized` while sign-in is expired, `.conflict` when the id is stored with other content, `.validation`
    /// for empty text, `.notFound` for an unknown conversation, `.server(500)` when the journal refuses the write.
    @discardableResult
    public func send(_ message: Message) throws(DeliveryError) -> Message {
        try beginRequest()
        return try accept([message])[0].get()
    }

    /// Stores messages as one ordered request: applied in order, one result per message. An expired sign-in or a
    /// journal failure throws for the whole batch and stores nothing.
    public func sendBatch(_ messages: [Message]) throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        try beginRequest()
        return try accept(messages)
    }

    /// Up to `limit` messages just before the one `cursor` names (the newest when nil), oldest first, in
    /// conversation order; the cursor is found by its message id. `.validation` when it names no message of the
    /// conversation.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        throws(DeliveryError) -> MessagePage
    {
        try beginRequest()
        return try page(in: conversation, before: cursor, limit: limit)
    }
}

// MARK: - ConversationRepository

extension InMemoryChatBackend: ConversationRepository {
    /// Up to `limit` conversations of `user` after `cursor`, most recent activity first.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        throws(DeliveryError) -> ConversationPage
    {
        try beginRequest()
        return try conversationPage(of: user, after: cursor, limit: limit)
    }
}

// MARK: - UserRepository

extension InMemoryChatBackend: UserRepository {
    /// The profiles of the known users among `ids`, in the order asked.
    public func users(_ ids: [UserID]) throws(DeliveryError) -> [User] {
        try beginRequest()
        return profiles(ids)
    }

    /// The presence of the known users among `ids`, in the order asked (offline when nothing is known).
    public func presence(_ ids: [UserID]) throws(DeliveryError) -> [Presence] {
        try beginRequest()
        return presences(ids)
    }
}
