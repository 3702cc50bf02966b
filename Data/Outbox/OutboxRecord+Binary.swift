import Foundation

extension OutboxRecord {
    // MARK: - Encoding

    /// The record's body: version byte, kind byte, then the kind's fields.
    func encoded() -> Data {
        var writer = BinaryRecordWriter(capacity: 64 + (message?.text.utf8.count ?? text?.utf8.count ?? 0))
        writer.byte(Self.currentVersion)
        writer.byte(kind.rawValue)
        switch kind {
        case .put:
            if let message { message.write(to: &writer) }
        case .status:
            writer.string(id ?? "")
            writer.byte(status ?? 0)
            writer.double(at ?? 0)
            writer.optional(attempts) { $0.int($1) }
            writer.optional(error) { $1.write(to: &$0) }
        case .text:
            writer.string(id ?? "")
            writer.string(text ?? "")
        case .remove:
            writer.string(id ?? "")
        case .clear:
            break
        case .mark:
            writer.string(conversation ?? "")
            writer.int(sequence ?? 0)
        }
        return writer.data
    }

    // MARK: - Decoding

    /// Reads a body written by `encoded()`. Throws `OutboxRecordNewerVersion` for a newer layout and
    /// `OutboxRecordMappingError` for a malformed body.
    init(body: Data) throws {
        self = try body.withUnsafeBytes { bytes in
            var reader = BinaryRecordReader(bytes)
            let version = try reader.byte()
            guard version <= Self.currentVersion else { throw OutboxRecordNewerVersion(version: version) }
            guard version > 0 else { throw OutboxRecordMappingError(description: "record version 0") }
            let rawKind = try reader.byte()
            guard let kind = Kind(rawValue: rawKind) else {
                throw OutboxRecordMappingError(description: "unknown record kind \(rawKind)")
            }
            var record = OutboxRecord(kind: kind)
            switch kind {
            case .put:
                record.message = try StoredMessage(reading: &reader, version: version)
            case .status:
                record.id = try reader.string()
                record.status = try reader.byte()
                record.at = try reader.double()
                record.attempts = try reader.optional { try $0.int() }
                record.error = try reader.optional { try StoredDeliveryError(reading: &$0) }
            case .text:
                record.id = try reader.string()
                record.text = try reader.string()
            case .remove:
                record.id = try reader.string()
            case .clear:
                break
            case .mark:
                guard version >= 2 else { throw OutboxRecordMappingError(description: "a mark in a version-1 record") }
                record.conversation = try reader.string()
                record.sequence = try reader.int()
            }
            guard reader.isAtEnd else { throw OutboxRecordMappingError(description: "bytes after a record") }
            return record
        }
    }
}

extension StoredMessage {
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

    /// Reads a message written by `write(to:)` in a record of `version` (version 1 has no sequence).
    init(reading reader: inout BinaryRecordReader, version: UInt8) throws {
        self.init(
            id: try reader.string(), conversationID: try reader.string(), senderID: try reader.string(),
            text: try reader.string(), timestamp: try reader.double(), status: try reader.byte(),
            statusUpdatedAt: try reader.double(), attempts: try reader.int(),
            lastError: try reader.optional { try StoredDeliveryError(reading: &$0) },
            mediaURL: try reader.optional { try $0.string() }, thumbnailURL: try reader.optional { try $0.string() },
            sequence: version >= 2 ? try reader.int() : nil)
    }
}

extension StoredDeliveryError {
    func write(to writer: inout BinaryRecordWriter) {
        writer.byte(code)
        writer.optional(number) { $0.int($1) }
        writer.optional(reason) { $0.string($1) }
    }

    init(reading reader: inout BinaryRecordReader) throws {
        self.init(
            code: try reader.byte(), number: try reader.optional { try $0.int() },
            reason: try reader.optional { try $0.string() })
    }
}
