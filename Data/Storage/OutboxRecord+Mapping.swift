import CourierDomain
import Foundation

/// A stored value that the domain cannot take, or a malformed record body.
struct OutboxRecordMappingError: Error, CustomStringConvertible {
    let description: String
}

// MARK: - Stable codes

/// The one-byte codes of statuses and delivery errors on disk. Never renumber: old files must keep their meaning.
enum OutboxStorageCode {
    static func code(of status: MessageStatus) -> UInt8 {
        switch status {
        case .queued: 1
        case .sending: 2
        case .sent: 3
        case .delivered: 4
        case .read: 5
        case .failed: 6
        }
    }

    static func status(_ code: UInt8) throws -> MessageStatus {
        switch code {
        case 1: .queued
        case 2: .sending
        case 3: .sent
        case 4: .delivered
        case 5: .read
        case 6: .failed
        default: throw OutboxRecordMappingError(description: "unknown status code \(code)")
        }
    }
}

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
            thumbnailURL: message.media?.thumbnailURL)
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
            media: stored.mediaURL.map { MediaAttachment(url: $0, thumbnailURL: stored.thumbnailURL) })
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
