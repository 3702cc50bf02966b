import CourierDomain
import Foundation

extension StoredMessage {
    /// The stored form of `message`.
    init(_ message: Message) {
        self.init(
            id: message.id.rawValue, conversationID: message.conversationID.rawValue,
            senderID: message.senderID.rawValue, text: message.text,
            timestamp: message.timestamp.timeIntervalSinceReferenceDate,
            status: StorageCode.code(of: message.status),
            statusUpdatedAt: message.statusUpdatedAt.timeIntervalSinceReferenceDate, attempts: message.attempts,
            lastError: message.lastError.map(StoredDeliveryError.init), mediaURL: message.media?.url,
            thumbnailURL: message.media?.thumbnailURL, sequence: message.sequence)
    }

    /// Writes the `message` layout of docs/storage-format.md (§3), sequence included.
    func write(to writer: inout BinaryRecordWriter) {
        writer.string(id)
        writer.string(conversationID)
        writer.string(senderID)
        writer.string(text)
        writer.double(timestamp)
        writer.byte(status)
        writer.double(statusUpdatedAt)
        writer.int(attempts)
        writer.optional(lastError) { $1.write(to: &$0) }
        writer.optional(mediaURL) { $0.string($1) }
        writer.optional(thumbnailURL) { $0.string($1) }
        writer.int(sequence ?? 0)
    }

    /// Reads a message written by `write(to:)`; without `sequence`, the layout of a version-1 outbox record, which
    /// ends before it.
    init(reading reader: inout BinaryRecordReader, withSequence sequence: Bool = true) throws {
        self.init(
            id: try reader.string(), conversationID: try reader.string(), senderID: try reader.string(),
            text: try reader.string(), timestamp: try reader.double(), status: try reader.byte(),
            statusUpdatedAt: try reader.double(), attempts: try reader.int(),
            lastError: try reader.optional { try StoredDeliveryError(reading: &$0) },
            mediaURL: try reader.optional { try $0.string() }, thumbnailURL: try reader.optional { try $0.string() },
            sequence: sequence ? try reader.int() : nil)
    }
}

extension BinaryRecordWriter {
    /// Writes `value` in the `message` layout (docs/storage-format.md §3).
    package mutating func message(_ value: Message) { StoredMessage(value).write(to: &self) }
}

extension BinaryRecordReader {
    /// Reads a message in the `message` layout; throws for an unknown status or error code.
    package mutating func message() throws -> Message { try Message(StoredMessage(reading: &self)) }
}

extension Message {
    /// The message a stored one describes.
    init(_ stored: StoredMessage) throws {
        self.init(
            id: MessageID(stored.id), conversationID: ConversationID(stored.conversationID),
            senderID: UserID(stored.senderID), text: stored.text,
            timestamp: Date(timeIntervalSinceReferenceDate: stored.timestamp),
            status: try StorageCode.status(stored.status),
            statusUpdatedAt: Date(timeIntervalSinceReferenceDate: stored.statusUpdatedAt), attempts: stored.attempts,
            lastError: try stored.lastError.map(DeliveryError.init),
            media: stored.mediaURL.map { MediaAttachment(url: $0, thumbnailURL: stored.thumbnailURL) },
            sequence: stored.sequence ?? 0)
    }
}
