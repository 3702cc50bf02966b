import CourierDomain
import Foundation

// MARK: - Domain to storage

extension StoredMessage {
    /// The stored form of `message`.
    init(_ message: Message) {
        self.init(
            id: message.id.rawValue, conversationID: message.conversationID.rawValue,
            senderID: message.senderID.rawValue, text: message.text,
            timestamp: message.timestamp.timeIntervalSinceReferenceDate, status: message.status.rawValue,
            statusUpdatedAt: message.statusUpdatedAt.timeIntervalSinceReferenceDate, attempts: message.attempts,
            lastError: message.lastError.map(StoredDeliveryError.init), mediaURL: message.media?.url,
            thumbnailURL: message.media?.thumbnailURL)
    }
}

extension StoredDeliveryError {
    /// The stored form of `error`.
    init(_ error: DeliveryError) {
        switch error {
        case .offline: self.init(code: "offline")
        case .timeout: self.init(code: "timeout")
        case .server(let code): self.init(code: "server", number: code)
        case .unauthorized: self.init(code: "unauthorized")
        case .forbidden: self.init(code: "forbidden")
        case .validation(let reason): self.init(code: "validation", reason: reason)
        case .notFound: self.init(code: "notFound")
        case .unknown(let text): self.init(code: "unknown", reason: text)
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
            kind: .status, id: message.id.rawValue, status: message.status.rawValue,
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
}

// MARK: - Storage to domain

/// A stored value that the domain cannot take (an unknown status or error case).
struct OutboxRecordMappingError: Error, CustomStringConvertible {
    let description: String
}

extension Message {
    /// The message a stored one describes.
    init(_ stored: StoredMessage) throws {
        guard let status = MessageStatus(rawValue: stored.status) else {
            throw OutboxRecordMappingError(description: "unknown status \(stored.status)")
        }
        self.init(
            id: MessageID(stored.id), conversationID: ConversationID(stored.conversationID),
            senderID: UserID(stored.senderID), text: stored.text,
            timestamp: Date(timeIntervalSinceReferenceDate: stored.timestamp), status: status,
            statusUpdatedAt: Date(timeIntervalSinceReferenceDate: stored.statusUpdatedAt), attempts: stored.attempts,
            lastError: try stored.lastError.map(DeliveryError.init),
            media: stored.mediaURL.map { MediaAttachment(url: $0, thumbnailURL: stored.thumbnailURL) })
    }
}

extension DeliveryError {
    /// The error a stored one describes.
    init(_ stored: StoredDeliveryError) throws {
        switch stored.code {
        case "offline": self = .offline
        case "timeout": self = .timeout
        case "server": self = .server(code: stored.number ?? 500)
        case "unauthorized": self = .unauthorized
        case "forbidden": self = .forbidden
        case "validation": self = .validation(reason: stored.reason ?? "")
        case "notFound": self = .notFound
        case "unknown": self = .unknown(stored.reason ?? "")
        default: throw OutboxRecordMappingError(description: "unknown delivery error \(stored.code)")
        }
    }
}
