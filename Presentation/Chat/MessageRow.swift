import CourierDomain

/// One message as the chat shows it.
public struct MessageRow: Equatable, Sendable, Identifiable {
    /// The message id.
    public var id: MessageID
    /// Its text; for an image, its caption (empty when it has none).
    public var text: String
    /// The image the bubble draws, for an image message: its thumbnail, or the full-size image only when no thumbnail
    /// was made; nil for a text message.
    public var imageURL: String?
    /// Where it is in its life.
    public var status: MessageStatus
    /// Who wrote it.
    public var senderID: UserID
    /// The status under an outgoing bubble ("Sending...", "Failed - Tap to retry" …); empty for incoming ones.
    public var statusLabel: String
    /// Whether the signed-in user wrote it.
    public var isOutgoing: Bool
    /// When it was composed, relative to now ("Now", "5m ago", "Yesterday", "Oct 19").
    public var timeText: String
    /// Whether Retry and Delete are offered (an outgoing failed message).
    public var canRetry: Bool

    /// Creates a row.
    public init(
        id: MessageID, text: String, status: MessageStatus, senderID: UserID, statusLabel: String, isOutgoing: Bool,
        timeText: String, canRetry: Bool, imageURL: String? = nil
    ) {
        self.id = id
        self.text = text
        self.imageURL = imageURL
        self.status = status
        self.senderID = senderID
        self.statusLabel = statusLabel
        self.isOutgoing = isOutgoing
        self.timeText = timeText
        self.canRetry = canRetry
    }

    /// Whether it is an image message.
    public var isImage: Bool { imageURL != nil }

    /// The chat's label for a status: "Queued", "Sending...", "Sent", "Delivered", "Read",
    /// "Failed - Tap to retry" — the English table's (`CourierStrings.messageStatus`).
    public static func statusLabel(for status: MessageStatus) -> String { CourierStrings.english.messageStatus(status) }

    /// The mark for a status with its symbols, as story 2.4 writes them: "✓ Sent", "✓✓ Delivered", "✓✓ Read",
    /// "⚠️ Failed - Tap to retry" ("Queued", "Sending..." as the label) — `strings`' (`CourierStrings.statusMark`).
    public static func statusMark(for status: MessageStatus, strings: CourierStrings = .english) -> String {
        strings.statusMark(status)
    }
}
