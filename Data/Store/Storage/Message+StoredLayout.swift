import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension BinaryRecordWriter {
    /// Writes `value` in the `message` layout of docs/storage-format.md (§3), its last field the device's flags;
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
        // A negative −f holds the flags f (1 `outcomeUnknown`, 2 `sendRequested`, 4 a `serverID` follows); 0 is none.
        // Earlier builds kept a (positive) compose sequence here, which reads as no flags; they read the field as
        // nothing.
        let flags = (value.outcomeUnknown ? 1 : 0) | (value.sendRequested ? 2 : 0) | (value.serverID == nil ? 0 : 4)
        int(-flags)
        if let serverID = value.serverID { string(serverID) }
    }
}

extension BinaryRecordReader {
    /// Reads a message in the `message` layout; throws for an unknown status or error code.
    package mutating func message() throws -> Message { try Message(reading: &self) }
}

extension Message {
    /// Reads a message written by `BinaryRecordWriter.message(_:)` straight into a message, with no stored copy
    /// between: every open reads every stored message, and each copy costs its strings' retains. The flags field
    /// holds −f for the flags f (1 `outcomeUnknown`, 2 `sendRequested`, 4 the backend's `serverID` follows as a
    /// string; an earlier build's compose sequence there reads as none); `withReservedField`
    /// false reads the layout of a version-1 outbox record, which ends before it. Throws for an unknown status or
    /// error code.
    package init(reading reader: inout BinaryRecordReader, withReservedField reserved: Bool = true) throws {
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
        let mark = reserved ? try reader.int() : 0
        self.init(
            id: MessageID(id), conversationID: ConversationID(conversationID), senderID: UserID(senderID), text: text,
            timestamp: Date(timeIntervalSinceReferenceDate: timestamp), status: status,
            statusUpdatedAt: Date(timeIntervalSinceReferenceDate: statusUpdatedAt), attempts: attempts,
            lastError: lastError, media: mediaURL.map { MediaAttachment(url: $0, thumbnailURL: thumbnailURL) })
        let flags = mark < 0 && mark >= -7 ? -mark : 0
        outcomeUnknown = flags & 1 != 0
        sendRequested = flags & 2 != 0
        if flags & 4 != 0 { serverID = try reader.string() }
    }
}
