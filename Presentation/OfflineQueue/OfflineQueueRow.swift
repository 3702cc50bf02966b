import CourierDomain
import Foundation

/// One pending message as the Offline Queue lists it.
public struct OfflineQueueRow: Equatable, Sendable, Identifiable {
    /// The message id.
    public var id: MessageID
    /// The conversation it goes to.
    public var conversationID: ConversationID
    /// That conversation's name.
    public var conversationName: String
    /// The full text (what Edit starts from).
    public var text: String
    /// The text on one line, at most `previewLimit` characters ("…" ends a cut one).
    public var preview: String
    /// When it was composed, relative to now ("Now", "5m ago" …).
    public var timeText: String
    /// Compose time (the list is in compose order).
    public var composedAt: Date
    /// Where it is: queued, sending or failed.
    public var status: MessageStatus
    /// The badge: "Queued", "Sending..." or "Failed"; "Not confirmed - will check with the server" for a queued
    /// message whose last send had no answer.
    public var badge: String
    /// Whether Edit is offered: not for a message whose last send had no answer (`Message.outcomeUnknown`), which
    /// the backend may hold already.
    public var isEditable: Bool

    /// Creates a row.
    public init(
        id: MessageID, conversationID: ConversationID, conversationName: String, text: String, preview: String,
        timeText: String, composedAt: Date, status: MessageStatus, badge: String, isEditable: Bool = true
    ) {
        self.id = id
        self.conversationID = conversationID
        self.conversationName = conversationName
        self.text = text
        self.preview = preview
        self.timeText = timeText
        self.composedAt = composedAt
        self.status = status
        self.badge = badge
        self.isEditable = isEditable
    }

    /// The row of a pending `message` going to the conversation called `conversationName`: its preview and badge
    /// from its text and status, its time text read at `now`.
    /// The texts are `strings`'; the time's, the formatter's.
    public init(
        _ message: Message, conversationName: String, now: Date, formatter: RelativeTimeFormatter,
        strings: CourierStrings = .english
    ) {
        self.init(
            id: message.id, conversationID: message.conversationID, conversationName: conversationName,
            text: message.text,
            preview: Self.preview(of: ConversationsListItem.previewText(of: message, photo: strings.photoPreview)),
            timeText: formatter.string(for: message.timestamp, relativeTo: now), composedAt: message.timestamp,
            status: message.status,
            badge: message.outcomeUnknown && message.status == .queued
                ? strings.unconfirmedLabel : strings.queueBadge(message.status),
            isEditable: !message.outcomeUnknown)
    }

    /// The longest preview, in characters.
    public static let previewLimit = 100

    /// `text` on one line, cut to `previewLimit` characters with a final "…" when longer.
    public static func preview(of text: String) -> String {
        let line =
            text.contains(where: \.isNewline)
            ? String(text.map { $0.isNewline ? " " : $0 }) : text
        guard line.count > previewLimit else { return line }
        return String(line.prefix(previewLimit - 1)) + "…"
    }

    /// The badge for a pending status, in English (`CourierStrings.queueBadge`).
    public static func badge(for status: MessageStatus) -> String { CourierStrings.english.queueBadge(status) }
}
