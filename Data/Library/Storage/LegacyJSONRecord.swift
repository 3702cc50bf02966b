import CourierStore
import Foundation

/// A record body in the JSON of format version 1, which the write queue, the message cache and the conversation
/// cache wrote before every store moved to binary bodies (docs/storage-format.md §4, "Format 1 bodies"). Only read,
/// so that an old data directory keeps opening; a compaction rewrites what it holds in the binary layout.
///
/// Values are read as `JSONEncoder`'s defaults wrote them: dates as seconds since 2001-01-01 UTC, data as base64,
/// absent optionals as missing keys.
struct LegacyJSONRecord {
    private let fields: [String: Any]

    /// Whether `body` is a format-1 JSON body: a JSON object starts with `{`, which no binary body does (their
    /// first byte is a version, 1 to 127).
    static func isJSON(_ body: Data) -> Bool { body.first == UInt8(ascii: "{") }

    /// Reads a body of a store whose format 1 was JSON: a JSON body goes to `json`; any other is binary, its version
    /// byte checked against `version` (the only binary one there is) before `binary` reads the rest.
    static func decode<Record>(
        _ body: Data, version: UInt8, json: (LegacyJSONRecord) throws -> Record,
        binary: (inout BinaryRecordReader) throws -> Record
    ) throws -> Record {
        if isJSON(body) { return try json(LegacyJSONRecord(body)) }
        return try BinaryRecordReader.reading(body) { reader in
            _ = try reader.version(from: version, through: version)
            return try binary(&reader)
        }
    }

    /// Parses `body`; throws `RecordFormatError` when it is not a JSON object.
    init(_ body: Data) throws {
        guard let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw RecordFormatError(description: "a format-1 record that is not a JSON object")
        }
        self.fields = fields
    }

    private init(fields: [String: Any]) { self.fields = fields }

    /// The string at `key`; throws when it is missing or not a string.
    func string(_ key: String) throws -> String { try required(key, optionalString(key)) }

    /// The string at `key`, nil when missing.
    func optionalString(_ key: String) -> String? { fields[key] as? String }

    /// The integer at `key`, nil when missing or not a number.
    func optionalInt(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }

    /// The integer at `key`; throws when it is missing.
    func int(_ key: String) throws -> Int { try required(key, optionalInt(key)) }

    /// The date at `key` (seconds since 2001-01-01 UTC); throws when it is missing.
    func date(_ key: String) throws -> Date {
        Date(timeIntervalSinceReferenceDate: try required(key, (fields[key] as? NSNumber)?.doubleValue))
    }

    /// The base64 data at `key`; throws when it is missing or not base64.
    func data(_ key: String) throws -> Data {
        try required(key, optionalString(key).flatMap { Data(base64Encoded: $0) })
    }

    /// The array of strings at `key`; throws when it is missing.
    func strings(_ key: String) throws -> [String] { try required(key, fields[key] as? [String]) }

    /// The nested object at `key`, nil when missing.
    func object(_ key: String) -> LegacyJSONRecord? { (fields[key] as? [String: Any]).map(LegacyJSONRecord.init) }

    /// The value at `key` as `JSONDecoder` reads it (an enum with associated values); nil when missing.
    func decoded<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        guard let value = fields[key] else { return nil }
        return try JSONDecoder().decode(type, from: JSONSerialization.data(withJSONObject: value))
    }

    private func required<T>(_ key: String, _ value: T?) throws -> T {
        guard let value else { throw RecordFormatError(description: "a format-1 record without a valid \"\(key)\"") }
        return value
    }
}
