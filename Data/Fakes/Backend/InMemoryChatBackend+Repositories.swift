import CourierData
import CourierDomain
import Foundation

// MARK: - Requests of one signed-in user

/// Every request names the signed-in user who makes it, and the backend refuses what that user may not do with
/// `.forbidden`, changing nothing — the rules `courier-server` answers 403 for (docs/http-api.md, "Conventions"), so
/// the in-process backend never allows what the server refuses:
/// - only a conversation's participants read its pages, its details or its read markers, write into it, or move a
///   marker in it (to anyone else it is `.notFound`, exactly as a conversation that does not exist);
/// - a message's sender is the signed-in user, in a single send and in every message of a batch (one that is not
///   refuses the whole batch);
/// - a user's conversation list and event feed are theirs alone;
/// - names and presence only of users one shares a conversation with, and one's own; a display name only one's own.
/// An unknown conversation is `.notFound` as before; the checks come before validation of the content.
extension InMemoryChatBackend {
    /// Stores one message sent by `user` (or answers with the stored one when its id is known with the same
    /// content). Throws `.unauthorized` while sign-in is expired, `.forbidden` for a sender other than `user` or a
    /// conversation `user` is not in, `.conflict` when the id is stored with other content, `.validation` for empty
    /// text, `.notFound` for an unknown conversation, `.server(500)` when the journal refuses the write.
    @discardableResult
    public func send(_ message: Message, as user: UserID) throws(DeliveryError) -> Message {
        try beginRequest()
        try authorizeWrites([message], by: user)
        return try accept([message])[0].get()
    }

    /// Stores messages sent by `user` as one ordered request: applied in order, one result per message. An expired
    /// sign-in, a message `user` may not write (`.forbidden`) or a journal failure throws for the whole batch and
    /// stores nothing.
    public func sendBatch(_ messages: [Message], as user: UserID) throws(DeliveryError)
        -> [Result<Message, DeliveryError>]
    {
        try beginRequest()
        try authorizeWrites(messages, by: user)
        return try accept(messages)
    }

    /// Up to `limit` messages just before the one `cursor` names (the newest when nil), oldest first, in
    /// compose order; the cursor is found by its message id. `.validation` when it names no message of the
    /// conversation, `.forbidden` when `user` is not in it.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int, as user: UserID)
        throws(DeliveryError) -> MessagePage
    {
        try beginRequest()
        try authorizeReading(conversation, by: user)
        return try page(in: conversation, before: cursor, limit: limit)
    }

    /// Up to `limit` of `owner`'s conversations after `cursor`, most recent activity first; `.forbidden` unless
    /// `owner` is `user`.
    public func conversations(of owner: UserID, after cursor: ConversationCursor?, limit: Int, as user: UserID)
        throws(DeliveryError) -> ConversationPage
    {
        try beginRequest()
        guard owner == user else { throw .forbidden }
        return try conversationPage(of: owner, after: cursor, limit: limit)
    }

    /// The conversation as `user` sees it, with how many messages it holds; `.notFound`, or `.forbidden` when
    /// `user` is not in it.
    public func conversationDetails(_ id: ConversationID, as user: UserID) throws(DeliveryError)
        -> (conversation: Conversation, messageCount: Int)
    {
        try checkSignIn()
        try authorizeReading(id, by: user)
        guard let conversation = conversation(id, for: user) else { throw .notFound }
        return (conversation, messageCount(in: id))
    }

    /// The profiles of the known users among `ids`, in the order asked; `.forbidden` when one of them shares no
    /// conversation with `user` (an unknown id included: whom the backend knows is not told to strangers).
    public func users(_ ids: [UserID], as user: UserID) throws(DeliveryError) -> [User] {
        try checkSignIn()  // a name or presence lookup is not counted (`requests`)
        try authorizeProfiles(ids, for: user)
        return profiles(ids)
    }

    /// The presence of `ids`, in the order asked (offline when nothing is known); `.forbidden` as for `users`.
    public func presence(_ ids: [UserID], as user: UserID) throws(DeliveryError) -> [Presence] {
        try checkSignIn()  // a name or presence lookup is not counted (`requests`)
        try authorizeProfiles(ids, for: user)
        return presences(ids)
    }

    /// Changes `owner`'s display name (a write the offline write queue makes). A request: it counts in `requests`
    /// and fails with `.unauthorized` while sign-in is expired. Throws `.forbidden` unless `owner` is `user`,
    /// `.validation` for an empty name, `.notFound` for an unknown user, `.server(code: 500)` when the journal
    /// refuses the write; a refused write changes nothing.
    public func updateDisplayName(of owner: UserID, to name: String, as user: UserID) throws(DeliveryError) {
        try beginRequest()
        guard owner == user else { throw .forbidden }
        try storeDisplayName(of: owner, to: name)
    }

    /// Sets `owner`'s presence (their device connected or not) at `date`; `.forbidden` unless `owner` is `user`.
    public func setPresence(of owner: UserID, online: Bool, at date: Date, as user: UserID) throws(DeliveryError) {
        try checkSignIn()
        guard owner == user else { throw .forbidden }
        try setPresence(of: owner, online: online, at: date)
    }

    /// `updateDisplayName(of:to:as:)` as `signedInUser`.
    public func updateDisplayName(of owner: UserID, to name: String) throws(DeliveryError) {
        try updateDisplayName(of: owner, to: name, as: signedInUser)
    }

    /// Each participant's read marker in `conversation` (nil: none yet); `.notFound`, or `.forbidden` when `user`
    /// is not in it.
    public func reads(in conversation: ConversationID, as user: UserID) throws(DeliveryError)
        -> [(user: UserID, messageID: MessageID?)]
    {
        try checkSignIn()
        try authorizeReading(conversation, by: user)
        return reads(in: conversation)
    }

    // MARK: Rules

    /// `.notFound` for an unknown conversation and for one `user` is not in alike: one answer, so a stranger
    /// cannot tell which conversation ids exist.
    func authorizeReading(_ conversation: ConversationID, by user: UserID) throws(DeliveryError) {
        guard let stored = storedConversation(conversation), stored.participantIDs.contains(user) else {
            throw .notFound
        }
    }

    /// `.forbidden` when a message's sender is not `user`; `.notFound` when its conversation (a known one) is not
    /// `user`'s, as for an unknown one.
    public func authorizeWrites(_ messages: [Message], by user: UserID) throws(DeliveryError) {
        for message in messages {
            guard message.senderID == user else { throw .forbidden }
            if let stored = storedConversation(message.conversationID), !stored.participantIDs.contains(user) {
                throw .notFound
            }
        }
    }

    /// `.forbidden` unless every id is `user` or shares a conversation with them.
    func authorizeProfiles(_ ids: [UserID], for user: UserID) throws(DeliveryError) {
        let contacts = contacts(of: user)
        for id in ids where id != user && !contacts.contains(id) { throw .forbidden }
    }
}

// MARK: - MessageRepository

/// The repository conformances are the requests of `signedInUser`, with the same rules.
extension InMemoryChatBackend: MessageRepository {
    /// `send(_:as:)` as `signedInUser`.
    @discardableResult
    public func send(_ message: Message) throws(DeliveryError) -> Message { try send(message, as: signedInUser) }

    /// `sendBatch(_:as:)` as `signedInUser`.
    public func sendBatch(_ messages: [Message]) throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        try sendBatch(messages, as: signedInUser)
    }

    /// `messages(in:before:limit:as:)` as `signedInUser`.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        throws(DeliveryError) -> MessagePage
    {
        try messages(in: conversation, before: cursor, limit: limit, as: signedInUser)
    }
}

// MARK: - ConversationRepository

extension InMemoryChatBackend: ConversationRepository {
    /// `conversations(of:after:limit:as:)` as `signedInUser`.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        throws(DeliveryError) -> ConversationPage
    {
        try conversations(of: user, after: cursor, limit: limit, as: signedInUser)
    }
}

// MARK: - UserRepository

extension InMemoryChatBackend: UserRepository {
    /// `users(_:as:)` as `signedInUser`.
    public func users(_ ids: [UserID]) throws(DeliveryError) -> [User] { try users(ids, as: signedInUser) }

    /// `presence(_:as:)` as `signedInUser`.
    public func presence(_ ids: [UserID]) throws(DeliveryError) -> [Presence] { try presence(ids, as: signedInUser) }
}
