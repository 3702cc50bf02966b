import CourierData
import CourierDomain
import Foundation

extension InMemoryChatBackend {
    // MARK: - Hiding a conversation

    /// Hides `conversation` from `owner`'s list — a conversation deleted on their device — and from no one else's:
    /// its messages stay, the other participants keep it, and a new message there brings it back. A request (it
    /// counts, and fails with `.unauthorized` while sign-in is expired). Throws `.forbidden` unless `owner` is
    /// `user` and one of its participants, `.notFound` for an unknown conversation, `.server(code: 500)` when the
    /// journal refuses the write. Hiding a hidden conversation again changes nothing.
    public func hideConversation(_ conversation: ConversationID, for owner: UserID, as user: UserID)
        throws(DeliveryError)
    {
        try beginRequest()
        guard owner == user else { throw .forbidden }
        try authorizeReading(conversation, by: user)
        guard hiddenBy[conversation]?.contains(owner) != true else { return }
        let event = BackendEvent.conversationHidden(conversation: conversation, user: owner)
        try record([event])
        replay(event)
    }

    /// `hideConversation(_:for:as:)` as `signedInUser`.
    public func hideConversation(_ conversation: ConversationID) throws(DeliveryError) {
        try hideConversation(conversation, for: signedInUser, as: signedInUser)
    }

    /// Whether `user` has hidden `conversation` (and no message arrived there since).
    public func isHidden(_ conversation: ConversationID, for user: UserID) -> Bool {
        hiddenBy[conversation]?.contains(user) == true
    }
}
