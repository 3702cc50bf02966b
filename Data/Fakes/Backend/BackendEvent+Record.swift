import CourierData
import CourierDomain
import Foundation

extension BackendEvent {
    /// The record version this code writes: 2, binary (docs/storage-format.md §4); format 1 was JSON.
    static let recordVersion: UInt8 = 2

    /// An event's kind byte on disk.
    private enum RecordKind: UInt8 {
        case messageStored = 1, displayNameChanged = 2
    }

    /// The event as a record body: version byte, kind byte, then the kind's fields.
    func recordBody() -> Data {
        var writer = BinaryRecordWriter()
        writer.byte(Self.recordVersion)
        switch self {
        case .messageStored(let message):
            writer.byte(RecordKind.messageStored.rawValue)
            writer.message(message)
        case .displayNameChanged(let user, let name):
            writer.byte(RecordKind.displayNameChanged.rawValue)
            writer.string(user.rawValue)
            writer.string(name)
        }
        return writer.data
    }

    /// Reads a record body written by `recordBody()`, or a JSON one of format 1 (a body starting with `{`, which no
    /// binary body does); throws for anything else.
    init(recordBody body: Data) throws {
        if body.first == UInt8(ascii: "{") {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .millisecondsSince1970
            self = try decoder.decode(BackendEvent.self, from: body)
            return
        }
        self = try BinaryRecordReader.reading(body) { reader in
            _ = try reader.version(from: Self.recordVersion, through: Self.recordVersion)
            switch try reader.enumeration(RecordKind.self) {
            case .messageStored: return .messageStored(try reader.message())
            case .displayNameChanged:
                return .displayNameChanged(user: UserID(try reader.string()), name: try reader.string())
            }
        }
    }
}
