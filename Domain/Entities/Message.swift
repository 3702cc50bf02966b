#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A chat message as the client knows it.
///
/// A conversation's one order, on every device and at the backend, is `composeOrder`: timestamp, then id, where the
/// timestamp is the compose stamp the composing device gave the message (docs/design.md §2.3).
public struct Message: Hashable, Codable, Sendable, Identifiable {
    /// Client-generated id; the idempotency key.
    public var id: MessageID
    /// The backend's own id for the stored message, where it keeps one beside `id` (a Matrix event id, `$…`): what
    /// the backend names the message by when it refers to it (a deletion). Nil while pending, and on a backend that
    /// knows a message by `id` alone (Courier's own).
    public var serverID: String?
    /// The conversation it belongs to.
    public var conversationID: ConversationID
    /// Who wrote it.
    public var senderID: UserID
    /// The text (for an image message, a caption; may be empty when `media` is set).
    public var text: String
    /// The compose stamp: a hybrid logical clock reading the composing device gave the message, durably, when it was
    /// composed — its clock's time, raised past every stamp it gave in the conversation before and past every
    /// message it held there (`Message.composeStamp`), so it never goes back and a reply comes after what it
    /// answers. The order key with `id` (`composeOrder`), and the time a screen shows.
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
    /// Whether a send of this pending message ended with no answer (an error that `mayHaveBeenApplied`: a timeout,
    /// a backend that said nothing): the backend may hold it already, so its outcome is unknown until a resend under
    /// the same id settles it, and its text must not change meanwhile (`DurableOutbox.edit` refuses — a backend that
    /// keeps the first text for an id would silently drop the edit). Once set it stays while the message is pending:
    /// a later attempt that never reached the backend (offline, unreachable, unauthorized) settles nothing. The
    /// device's own bookkeeping: not part of the message on the wire.
    public var outcomeUnknown = false
    /// Whether the user asked for this pending message to go (Send All) while it could not: it goes at the first
    /// chance, whatever the send policy, across relaunches, and no reminder asks about it again. An attempt that ends
    /// `failed` carried the request out and clears it. The device's own bookkeeping: not part of the message on the
    /// wire.
    public var sendRequested = false

    /// Whether a Send All still waits for this message: requested, and not failed (a failed attempt carried the
    /// request out).
    public var awaitsSendAll: Bool { sendRequested && status != .failed }

    private enum CodingKeys: String, CodingKey {
        case id, serverID, conversationID, senderID, text, timestamp, status, statusUpdatedAt, attempts, lastError
        case media
    }

    /// Creates a message.
    public init(
        id: MessageID, conversationID: ConversationID, senderID: UserID, text: String, timestamp: Date,
        status: MessageStatus, statusUpdatedAt: Date? = nil, attempts: Int = 0, lastError: DeliveryError? = nil,
        media: MediaAttachment? = nil, serverID: String? = nil
    ) {
        self.id = id
        self.serverID = serverID
        self.conversationID = conversationID
        self.senderID = senderID
        self.text = text
        self.timestamp = timestamp
        self.status = status
        self.statusUpdatedAt = statusUpdatedAt ?? timestamp
        self.attempts = attempts
        self.lastError = lastError
        self.media = media
    }

    /// This message with a new status (only along `MessageStatus.canTransition`, else
    /// `StoreError.invalidTransition`), `statusUpdatedAt` set to `date`, the attempt count when `attempts` is given,
    /// and the last error set to `lastError` (nil clears it); a `lastError` that `mayHaveBeenApplied` sets
    /// `outcomeUnknown`, which no later change clears; `failed` clears `sendRequested` (the request was carried out).
    /// The one rule every `OutboxStore` applies.
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
        if lastError?.mayHaveBeenApplied == true { changed.outcomeUnknown = true }
        if status == .failed { changed.sendRequested = false }
        return changed
    }

    /// This message without the device's own bookkeeping flags (`outcomeUnknown`, `sendRequested`): what a backend
    /// is sent.
    public var asComposed: Message {
        var composed = self
        composed.outcomeUnknown = false
        composed.sendRequested = false
        return composed
    }

    /// Whether `other` carries the same write as this message: same conversation, sender, text and attachment.
    /// Status, times and attempts are the client's bookkeeping, not content. A backend that already holds an id
    /// answers a resend with the same content as a no-op and one with other content as `DeliveryError.conflict`.
    public func hasSameContent(as other: Message) -> Bool {
        conversationID == other.conversationID && senderID == other.senderID && text == other.text
            && media == other.media
    }

    /// Compose order, the one order of a conversation on every device and at the backend: by timestamp — the compose
    /// stamp, which the composing device makes later than every message it held in the conversation and every stamp
    /// it gave there before — then by id (docs/design.md §2.3).
    public static func composeOrder(_ lhs: Message, _ rhs: Message) -> Bool {
        (lhs.timestamp, lhs.id) < (rhs.timestamp, rhs.id)
    }

    /// The position of this message in compose order, usable as a pagination cursor.
    public var cursor: MessageCursor { MessageCursor(timestamp: timestamp, id: id) }
}
