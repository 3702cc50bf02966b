import CourierDomain
import Foundation

extension BinaryRecordWriter {
    /// Writes `value` in the `message` layout of docs/storage-format.md (§3), its reserved last field included (0);
    /// the field order is `Message.init(reading:withReservedField:)`'s.
    package mutating func message(_ value: Message) {
        string(value.id.rawValue)
        string(value.conversationID.rawValue)
        string(value.senderID.rawValue)
        string(value.text)
        double(value.timestamp.timeIntervalSinceReferenceDate)
        byte(StorageCode.code(of: value.status))
        double(value.statusUpdatedAt.timeIntervalSinceReferenceDate)
        int(value.attempts)
        optional(value.lastError.map(StoredDeliveryError.init)) { $1.write(to: &$0) }
        optional(value.media?.url) { $0.string($1) }
        optional(value.media?.thumbnailURL) { $0.string($1) }
        // Reserved: earlier builds kept a compose sequence here. Written 0 so that every build reads the layout.
        int(0)
    }
}

extension BinaryRecordReader {
    /// Reads a message in the `message` layout; throws for an unknown status or error code.
    package mutating func message() throws -> Message { try Message(reading: &self) }
}

extension Message {
    /// Reads a message written by `BinaryRecordWriter.message(_:)` straight into a message, with no stored copy
    /// between: every open reads every stored message, and each copy costs its strings' retains. The reserved last
    /// field (an earlier build's compose sequence) is read and dropped; `withReservedField` false reads the layout of
    /// a version-1 outbox record, which ends before it. Throws for an unknown status or error code.
    init(reading reader: inout BinaryRecordReader, withReservedField reserved: Bool = true) throws {
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
        if reserved { _ = try reader.int() }
        self.init(
            id: MessageID(id), conversationID: ConversationID(conversationID), senderID: UserID(senderID), text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: timestamp), status: status,
            statusUpdatedAt: Date(timeIntervalSinceReferenceDate: statusUpdatedAt), attempts: attempts,
            lastError: lastError, media: mediaURL.map { MediaAttachment(url: $0, thumbnailURL: thumbnailURL) })
    }
}
