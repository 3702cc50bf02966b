import Foundation

/// A chat message as the client knows it.
///
/// Compose order is kept by `sequence`, a per-conversation number the composing client assigns durably; the
/// timestamp is for display (clocks jump, go backwards and differ between devices). A backend keeps a conversation
/// in the order messages arrive, never by their timestamps.
public struct Message: Hashable, Codable, Sendable, Identifiable {
    /// Client-generated id; the idempotency key.
    public var id: MessageID
    /// The conversation it belongs to.
    public var conversationID: ConversationID
    /// Who wrote it.
    public var senderID: UserID
    /// The text (for an image message, a caption; may be empty when `media` is set).
    public var text: String
    /// Compose time on the sender's clock.
    public var timestamp: Date
    /// Where it is in its life.
    public var status: MessageStatus
    /// When `status` last changed.
    public var statusUpdatedAt: Date
    /// How many attempt rounds have ended (a round is one try plus the retry policy's retries); a round cut off by
    /// going offline or by an expired sign-in does not count.
    public var attempts: Int
    /// The error of the last failed attempt, if any.
    public var lastError: DeliveryError?
    /// An attached image, if any.
    public var media: MediaAttachment?
    /// Compose order within the conversation among the composing client's messages: 1, 2, 3 … assigned durably when
    /// the message is composed, never reused. 0 for a message the client did not compose (received, demo data).
    public var sequence: Int

    /// Creates a message.
    public init(
        id: MessageID, conversationID: ConversationID, senderID: UserID, text: String, timestamp: Date,
        status: MessageStatus, statusUpdatedAt: Date? = nil, attempts: Int = 0, lastError: DeliveryError? = nil,
        media: MediaAttachment? = nil, sequence: Int = 0
    ) {
        self.id = id
        self.conversationID = conversationID
        self.senderID = senderID
        self.text = text
        self.timestamp = timestamp
        self.status = status
        self.statusUpdatedAt = statusUpdatedAt ?? timestamp
        self.attempts = attempts
        self.lastError = lastError
        self.media = media
        self.sequence = sequence
    }

    private enum CodingKeys: String, CodingKey {
        case id, conversationID, senderID, text, timestamp, status, statusUpdatedAt, attempts, lastError, media
        case sequence
    }

    /// Decodes a message; one encoded before messages carried a sequence gets 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(MessageID.self, forKey: .id)
        conversationID = try container.decode(ConversationID.self, forKey: .conversationID)
        senderID = try container.decode(UserID.self, forKey: .senderID)
        text = try container.decode(String.self, forKey: .text)
        timestamp = try container.decode(Date.self, forKey: .timestamp)
        status = try container.decode(MessageStatus.self, forKey: .status)
        statusUpdatedAt = try container.decode(Date.self, forKey: .statusUpdatedAt)
        attempts = try container.decode(Int.self, forKey: .attempts)
        lastError = try container.decodeIfPresent(DeliveryError.self, forKey: .lastError)
        media = try container.decodeIfPresent(MediaAttachment.self, forKey: .media)
        sequence = try container.decodeIfPresent(Int.self, forKey: .sequence) ?? 0
    }

    /// This message with a new status (only along `MessageStatus.canTransition`, else
    /// `StoreError.invalidTransition`), `statusUpdatedAt` set to `date`, the attempt count when `attempts` is given,
    /// and the last error set to `lastError` (nil clears it). The one rule every `OutboxStore` applies.
    public func changingStatus(
        to status: MessageStatus, at date: Date, attempts: Int?, lastError: DeliveryError?
    ) throws -> Message {
        guard self.status.canTransition(to: status) else {
            throw StoreError.invalidTransition(from: self.status, to: status)
        }
        var changed = self
        changed.status = status
        changed.statusUpdatedAt = date
        if let attempts { changed.attempts = attempts }
        changed.lastError = lastError
        return changed
    }

    /// Whether `other` carries the same write as this message: same conversation, sender, text and attachment.
    /// Status, times and attempts are the client's bookkeeping, not content. A backend that already holds an id
    /// answers a resend with the same content as a no-op and one with other content as `DeliveryError.conflict`.
    public func hasSameContent(as other: Message) -> Bool {
        conversationID == other.conversationID && senderID == other.senderID && text == other.text
            && media == other.media
    }

    /// Compose order: timestamp, then id.
    public static func composeOrder(_ lhs: Message, _ rhs: Message) -> Bool {
        (lhs.timestamp, lhs.id) < (rhs.timestamp, rhs.id)
    }

    /// The position of this message in compose order, usable as a pagination cursor.
    public var cursor: MessageCursor { MessageCursor(timestamp: timestamp, id: id) }
}
