import CourierDomain

/// One row of the conversation list.
public struct ConversationsListItem: Equatable, Sendable, Identifiable {
    /// What the preview says for an image sent without a caption.
    public static let photoPreview = CourierStrings.english.photoPreview

    /// The conversation's id.
    public var id: ConversationID
    /// The conversation's name, or the other participants' display names joined with ", ".
    public var title: String
    /// The last message as text: its text, or for an image its caption ("Photo" when it has none) — never a URL.
    public var preview: String
    /// The thumbnail the row draws beside the preview when the last message is an image (the full-size image only
    /// when no thumbnail was made); nil when it is text.
    public var previewImageURL: String?
    /// When the last activity was, relative to now ("Now", "5m ago", "3h ago", "Yesterday", "Oct 19").
    public var timestamp: String
    /// Messages not read yet.
    public var unreadCount: Int

    /// Creates a row.
    public init(
        id: ConversationID, title: String, preview: String, timestamp: String, unreadCount: Int,
        previewImageURL: String? = nil
    ) {
        self.id = id
        self.title = title
        self.preview = preview
        self.previewImageURL = previewImageURL
        self.timestamp = timestamp
        self.unreadCount = unreadCount
    }

    /// Whether the last message is an image.
    public var previewIsImage: Bool { previewImageURL != nil }

    /// The one title rule for a conversation, wherever it is shown (the list, a chat's header, the Offline Queue's
    /// rows): its name when it has a non-empty one; else the other participants' names (`name`, or the id when it
    /// knows none), joined by ", "; a chat with no one else in it is titled by `currentUser`'s own name.
    public static func title(
        of conversation: Conversation, currentUser: UserID, name: (UserID) -> String?
    ) -> String {
        if let named = conversation.name, !named.isEmpty { return named }
        let others = conversation.participantIDs.filter { $0 != currentUser }
        let shown = others.isEmpty ? [currentUser] : others
        return shown.map { name($0) ?? $0.rawValue }.joined(separator: ", ")
    }

    /// The preview text of `message`: its text, or an image's caption, or `photo` (the strings table's
    /// `photoPreview`) for an image without one.
    public static func previewText(of message: Message?, photo: String = photoPreview) -> String {
        guard let message else { return "" }
        if message.media != nil, message.text.isEmpty { return photo }
        return message.text
    }
}
