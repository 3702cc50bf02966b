/// A repository that also holds pages on the device: what a screen can show at once, before the backend answers
/// (docs/design.md, "Cache first"). `CachingMessageRepository` is one; a screen given a plain repository waits for
/// the backend as before.
public protocol CachedMessagePages: Sendable {
    /// The page of `conversation` before `cursor` (the newest when nil) as the device holds it, read at once; nil
    /// when the device holds none.
    func cachedMessages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> MessagePage?
}
