/// What a device that starts over needs, in one consistent answer: the feed position the answer is true at, the
/// first page of the conversation list and the newest page of each chat asked for. Events after `position` are what
/// happened since; nothing before it is missing from the pages.
public struct FeedSnapshot: Hashable, Codable, Sendable {
    /// The cursor to go on from.
    public var position: FeedPosition
    /// The conversation list's first page.
    public var conversations: ConversationPage
    /// The newest page of each conversation asked for, by id.
    public var chats: [ConversationID: MessagePage]

    /// Creates a snapshot.
    public init(position: FeedPosition, conversations: ConversationPage, chats: [ConversationID: MessagePage]) {
        self.position = position
        self.conversations = conversations
        self.chats = chats
    }
}
