/// A repository that also holds pages on the device: what a screen can show at once, before the backend answers
/// (docs/design.md, "Cache first"). `CachingMessageRepository` is one; a screen given a plain repository waits for
/// the backend as before.
public protocol CachedMessagePages: Sendable {
    /// The page of `conversation` before `cursor` (the newest when nil) as the device holds it, read at once; nil
    /// when the device holds none.
    func cachedMessages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> MessagePage?
}

/// A conversation repository that also holds the list on the device: the page a list shows at once, before the
/// backend answers (docs/design.md, "Cache first"). `CachingConversationRepository` is one; a list given a plain
/// repository waits for the backend as before.
public protocol CachedConversationPages: Sendable {
    /// The page of the list after `cursor` (the first when nil) as the device holds it, read at once and marked
    /// `isCached`; nil when the device holds no conversation.
    func cachedConversations(after cursor: ConversationCursor?, limit: Int) -> ConversationPage?
}
