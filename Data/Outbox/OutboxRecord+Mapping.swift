import CourierDomain
import Foundation

// MARK: - Stable codes

// MARK: - Domain to storage

extension StoredMessage {
    /// The stored form of `message`.
    init(_ message: Message) {
        self.init(
            id: message.id.rawValue, conversationID: message.conversationID.rawValue,
            senderID: message.senderID.rawValue, text: message.text,
            timestamp: message.timestamp.timeIntervalSinceReferenceDate,
            status: OutboxStorageCode.code(of: message.status),
            statusUpdatedAt: message.statusUpdatedAt.timeIntervalSinceReferenceDate, attempts: message.attempts,
            lastError: message.lastError.map(StoredDeliveryError.init), mediaURL: message.media?.url,
            thumbnailURL: message.media?.thumbnailURL, sequence: message.sequence)
    }
}

extension StoredDeliveryError {
    /// The stored form of `error`.
    init(_ error: DeliveryError) {
        switch error {
        case .offline: self.init(code: 1)
        case .timeout: self.init(code: 2)
        case .server(let code): self.init(code: 3, number: code)
        case .unauthorized: self.init(code: 4)
        case .forbidden: self.init(code: 5)
        case .validation(let reason): self.init(code: 6, reason: reason)
        case .notFound: self.init(code: 7)
        case .unknown(let text): self.init(code: 8, reason: text)
        case .conflict: self.init(code: 9)
        }
    }
}

extension OutboxRecord {
    /// Stores a whole message.
    static func put(_ message: Message) -> OutboxRecord {
        OutboxRecord(kind: .put, message: StoredMessage(message))
    }

    /// Moves a message to the status, time, attempts and error of `message` (its state after the change).
    static func statusChange(of message: Message) -> OutboxRecord {
        OutboxRecord(
            kind: .status, id: message.id.rawValue, status: OutboxStorageCode.code(of: message.status),
            at: message.statusUpdatedAt.timeIntervalSinceReferenceDate, attempts: message.attempts,
            error: message.lastError.map(StoredDeliveryError.init))
    }

    /// Changes a message's text.
    static func textChange(of id: MessageID, to text: String) -> OutboxRecord {
        OutboxRecord(kind: .text, id: id.rawValue, text: text)
    }

    /// Removes a message.
    static func removal(of id: MessageID) -> OutboxRecord { OutboxRecord(kind: .remove, id: id.rawValue) }

    /// Removes every message.
    static let clearing = OutboxRecord(kind: .clear)

    /// Keeps `conversation`'s highest compose sequence across a compaction.
    static func mark(_ conversation: ConversationID, sequence: Int) -> OutboxRecord {
        OutboxRecord(kind: .mark, conversation: conversation.rawValue, sequence: sequence)
    }
}

// MARK: - Storage to domain

extension Message {
    /// The message a stored one describes.
    init(_ stored: StoredMessage) throws {
        self.init(
            id: MessageID(stored.id), conversationID: ConversationID(stored.conversationID),
            senderID: UserID(stored.senderID), text: stored.text,
            timestamp: Date(timeIntervalSinceReferenceDate: stored.timestamp),
            status: try OutboxStorageCode.status(stored.status),
            statusUpdatedAt: Date(timeIntervalSinceReferenceDate: stored.statusUpdatedAt), attempts: stored.attempts,
            lastError: try stored.lastError.map(DeliveryError.init),
            media: stored.mediaURL.map { MediaAttachment(url: $0, thumbnailURL: stored.thumbnailURL) },
            sequence: stored.sequence ?? 0)
    }
}

extension DeliveryError {
    /// The error a stored one describes.
    init(_ stored: StoredDeliveryError) throws {
        switch stored.code {
        case 1: self = .offline
        case 2: self = .timeout
        case 3: self = .server(code: stored.number ?? 500)
        case 4: self = .unauthorized
        case 5: self = .forbidden
        case 6: self = .validation(reason: stored.reason ?? "")
        case 7: self = .notFound
        case 8: self = .unknown(stored.reason ?? "")
        case 9: self = .conflict
        default: throw OutboxRecordMappingError(description: "unknown delivery error code \(stored.code)")
        }
    }
}
