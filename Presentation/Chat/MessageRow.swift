import CourierDomain

/// One message as the chat shows it.
public struct MessageRow: Equatable, Sendable, Identifiable {
    /// The message id.
    public var id: MessageID
    /// Its text.
    public var text: String
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
        timeText: String, canRetry: Bool
    ) {
        self.id = id
        self.text = text
        self.status = status
        self.senderID = senderID
        self.statusLabel = statusLabel
        self.isOutgoing = isOutgoing
        self.timeText = timeText
        self.canRetry = canRetry
    }

    /// The chat's label for a status: "Queued", "Sending...", "Sent", "Delivered", "Read",
    /// "Failed - Tap to retry".
    public static func statusLabel(for status: MessageStatus) -> String {
        switch status {
        case .queued: "Queued"
        case .sending: "Sending..."
        case .sent: "Sent"
        case .delivered: "Delivered"
        case .read: "Read"
        case .failed: "Failed - Tap to retry"
        }
    }
}
