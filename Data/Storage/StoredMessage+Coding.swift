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
}

extension BinaryRecordWriter {
    /// Writes `value` in the `message` layout (docs/storage-format.md §3).
    package mutating func message(_ value: Message) { StoredMessage(value).write(to: &self) }
}

extension BinaryRecordReader {
    /// Reads a message in the `message` layout; throws for an unknown status or error code.
    package mutating func message() throws -> Message { try Message(reading: &self) }
}

extension Message {
    /// Reads a message written by `StoredMessage.write(to:)` straight into a message, with no stored copy between:
    /// every open reads every stored message, and each copy costs its strings' retains. Without `sequence`, the
    /// layout of a version-1 outbox record, which ends before it (the sequence is then 0). Throws for an unknown
    /// status or error code.
    init(reading reader: inout BinaryRecordReader, withSequence sequence: Bool = true) throws {
        let id = try reader.string()
        let conversationID = try reader.string()
        let senderID = try reader.string()
        let text = try reader.string()
        let timestamp = try reader.double()
        let status = try StorageCode.status(try reader.byte())
        let statusUpdatedAt = try reader.double()
        let attempts = try reader.int()
        let lastError = try reader.optional { try DeliveryError(StoredDeliveryError(reading: &$0)) }
        let mediaURL = try reader.optional { try $0.string() }
        let thumbnailURL = try reader.optional { try $0.string() }
        self.init(
            id: MessageID(id), conversationID: ConversationID(conversationID), senderID: UserID(senderID), text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: timestamp), status: status,
            statusUpdatedAt: Date(timeIntervalSinceReferenceDate: statusUpdatedAt), attempts: attempts,
            lastError: lastError, media: mediaURL.map { MediaAttachment(url: $0, thumbnailURL: thumbnailURL) },
            sequence: sequence ? try reader.int() : 0)
    }
}
