import CourierData
import CourierDomain
import Foundation

extension BackendEvent {
    /// The record version this code writes: 2, binary (docs/storage-format.md §4); format 1 was JSON.
    static let recordVersion: UInt8 = 2

    /// An event's kind byte on disk.
    private enum RecordKind: UInt8 {
        case messageStored = 1
        case displayNameChanged = 2
        case receiptMarked = 3
        case feedsTrimmed = 4
        case conversationHidden = 5
        case messageDeleted = 6
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
        case .receiptMarked(let receipt):
            writer.byte(RecordKind.receiptMarked.rawValue)
            writer.string(receipt.conversationID.rawValue)
            writer.string(receipt.userID.rawValue)
            writer.string(receipt.kind.rawValue)
            writer.string(receipt.upTo.id.rawValue)
            writer.string(String(receipt.upTo.timestamp.timeIntervalSince1970.bitPattern))
        case .feedsTrimmed:
            writer.byte(RecordKind.feedsTrimmed.rawValue)
        case .conversationHidden(let conversation, let user):
            writer.byte(RecordKind.conversationHidden.rawValue)
            writer.string(conversation.rawValue)
            writer.string(user.rawValue)
        case .messageDeleted(let deletion):
            writer.byte(RecordKind.messageDeleted.rawValue)
            writer.string(deletion.conversationID.rawValue)
            writer.string(deletion.messageID.rawValue)
            writer.string(deletion.deletedBy.rawValue)
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
            case .receiptMarked:
                let conversation = ConversationID(try reader.string())
                let user = UserID(try reader.string())
                guard let kind = Receipt.Kind(rawValue: try reader.string()) else {
                    throw UnreadableEvent(reason: "unknown receipt kind")
                }
                let id = MessageID(try reader.string())
                guard let bits = UInt64(try reader.string()) else {
                    throw UnreadableEvent(reason: "unreadable receipt time")
                }
                let time = Date(timeIntervalSince1970: Double(bitPattern: bits))
                return .receiptMarked(
                    Receipt(
                        conversationID: conversation, userID: user, kind: kind, upTo: .init(timestamp: time, id: id)))
            case .feedsTrimmed: return .feedsTrimmed
            case .conversationHidden:
                return .conversationHidden(
                    conversation: ConversationID(try reader.string()), user: UserID(try reader.string()))
            case .messageDeleted:
                return .messageDeleted(
                    MessageDeletion(
                        conversationID: ConversationID(try reader.string()), messageID: MessageID(try reader.string()),
                        deletedBy: UserID(try reader.string())))
            }
        }
    }
}

/// A journal record whose fields this code cannot take.
private struct UnreadableEvent: Error {
    let reason: String
}
