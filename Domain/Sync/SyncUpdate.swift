/// What the sync engine tells screens as it applies the feed.
public enum SyncUpdate: Hashable, Sendable {
    /// Messages this device had not shown, in feed order: someone else's, or the user's own from another device.
    /// A message of the user's own that this device sent arrives through the outbox instead.
    case messages([Message])
    /// The user's own messages in `conversation` up to `upTo` reached `status` (`delivered` or `read`), as a receipt
    /// from another participant said. `messages` are the ones the sync raised, as it wrote them: the one place a
    /// status is raised, so a chat shows these rather than raising its rows again.
    case statuses(conversation: ConversationID, status: MessageStatus, upTo: MessageCursor, messages: [Message])
    /// The user read `conversation` up to `upTo` on another device (or this one): what is older is no longer unread.
    case readByMe(conversation: ConversationID, upTo: MessageCursor)
    /// A conversation was created or changed.
    case conversation(Conversation)
    /// Messages of `conversation` were deleted by their sender (on another device, or by another participant): a
    /// screen takes their rows away. The conversation's row comes with `rows`.
    case removed(conversation: ConversationID, ids: [MessageID])
    /// Conversation rows the sync wrote, each as it now stands — preview, activity, unread count, name and
    /// participants. The one place these are computed (docs/design.md §2.7): a list replaces its row by id and places
    /// it again, and counts nothing itself.
    case rows([Conversation])
    /// The cursor was too old and the device started over: screens take these pages in place of what they show
    /// (merging, never emptying first).
    case reset(FeedSnapshot)
    /// The live connection opened (true: caught up and listening) or closed. True comes again when sign-in is renewed
    /// while listening: what the expired sign-in refused may be asked for again.
    case live(Bool)
}
