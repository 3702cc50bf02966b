import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension OutboxRecord {
    // MARK: - Encoding

    /// The record's body: version byte, kind byte, then the kind's fields.
    package func encoded() -> Data {
        var writer = BinaryRecordWriter(capacity: 64 + (message?.text.utf8.count ?? text?.utf8.count ?? 0))
        writer.byte(Self.currentVersion)
        writer.byte(kind.rawValue)
        switch kind {
        case .put:
            if let message { writer.message(message) }
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
        case .clear, .sendAllMark:
            break
        case .sequenceMark:
            writer.string(conversation ?? "")
            writer.int(sequence ?? 0)
        case .stampMark:
            writer.string(conversation ?? "")
            writer.double(stamp ?? 0)
        }
        return writer.data
    }

    // MARK: - Decoding

    /// Reads a body written by `encoded()`. Throws `RecordNewerVersion` for a newer layout and
    /// `RecordFormatError` for a malformed body.
    package init(body: Data) throws {
        self = try body.withUnsafeBytes { try OutboxRecord(body: $0) }
    }

    /// Reads a body written by `encoded()` in place (a slice of a log file's bytes), as `init(body:)` does.
    package init(body: UnsafeRawBufferPointer) throws {
        self = try BinaryRecordReader.reading(body) { reader in
            let version = try reader.version(from: 1, through: Self.currentVersion)
            let kind = try reader.enumeration(Kind.self)
            var record = OutboxRecord(kind: kind)
            switch kind {
            case .put:
                record.message = try Message(reading: &reader, withReservedField: version >= 2)
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
            case .sendAllMark:
                guard version >= 2 else { throw RecordFormatError(description: "a mark in a version-1 record") }
            case .sequenceMark:
                guard version >= 2 else { throw RecordFormatError(description: "a mark in a version-1 record") }
                record.conversation = try reader.string()
                record.sequence = try reader.int()
            case .stampMark:
                guard version >= 2 else { throw RecordFormatError(description: "a mark in a version-1 record") }
                record.conversation = try reader.string()
                record.stamp = try reader.double()
            }
            return record
        }
    }
}
