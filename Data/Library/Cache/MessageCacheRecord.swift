import CourierDomain
import CourierStore
import Foundation

/// One record of the message cache's log, separate from the domain `Message` so the format can evolve on its own.
///
/// `put` stores a delivered message (a later put of the same id replaces it); `start` says the cache holds the
/// conversation back to its first message; `drop` forgets a conversation (evicted); `remove` forgets one message
/// (its sender deleted it); `answered` stores a message of this device kept from its send's answer, as `put` does,
/// and says its echo has not come through the feed; `echoed` that it came. Replaying the records in order,
/// with the same limits, rebuilds the cache. The body is binary (docs/storage-format.md §4); version-1 JSON bodies
/// of earlier builds are still read.
package struct MessageCacheRecord: Equatable {
    /// What a record does; the raw value is its byte on disk.
    enum Operation: UInt8, CaseIterable {
        case put = 1
        case start = 2
        case drop = 3
        case remove = 4
        case answered = 5
        case echoed = 6
    }

    /// The record format this code writes: 2, binary (1 was JSON).
    static let currentVersion: UInt8 = 2

    var operation: Operation
    var conversation: ConversationID
    /// The message stored (`put`).
    package var message: Message?
    /// The message a record names (`remove`, `echoed`).
    var namedID: MessageID?

    /// A record storing `message`; `answered`: kept from its send's answer, its echo not come.
    package init(put message: Message, answered: Bool = false) {
        operation = answered ? .answered : .put
        conversation = message.conversationID
        self.message = message
    }

    /// A record forgetting the message `id` of `conversation`.
    init(remove id: MessageID, in conversation: ConversationID) {
        self.init(.remove, id, in: conversation)
    }

    /// A record naming the message `id` of `conversation`: `remove` or `echoed`.
    init(_ operation: Operation, _ id: MessageID, in conversation: ConversationID) {
        self.operation = operation
        self.conversation = conversation
        namedID = id
    }

    /// A record about a whole conversation (`start` or `drop`).
    init(_ operation: Operation, conversation: ConversationID) {
        self.operation = operation
        self.conversation = conversation
    }

    // MARK: - Coding

    /// The record's body: version byte, operation byte, then the message (`put`, `answered`) or the conversation id
    /// (and the message id, `remove`, `echoed`).
    package func encoded() -> Data {
        var writer = BinaryRecordWriter(capacity: 96 + (message?.text.utf8.count ?? 0))
        writer.byte(Self.currentVersion)
        writer.byte(operation.rawValue)
        if let message { writer.message(message) } else { writer.string(conversation.rawValue) }
        if let namedID { writer.string(namedID.rawValue) }
        return writer.data
    }

    /// Reads a stored record, binary or a version-1 JSON one; throws for bytes that are not a record of a version
    /// this code reads.
    package static func decode(_ body: Data) throws -> MessageCacheRecord {
        try LegacyJSONRecord.decode(body, version: currentVersion, json: Self.init(json:)) { reader in
            let operation = try reader.enumeration(Operation.self)
            if operation == .remove || operation == .echoed {
                let conversation = ConversationID(try reader.string())
                return MessageCacheRecord(operation, MessageID(try reader.string()), in: conversation)
            }
            guard operation == .put || operation == .answered else {
                return MessageCacheRecord(operation, conversation: ConversationID(try reader.string()))
            }
            return MessageCacheRecord(put: try reader.message(), answered: operation == .answered)
        }
    }

    /// A version-1 record: `{"v":1,"op":"put","c":…,"id":…,"sender":…,"text":…,"ts":…,"status":…,"mediaURL":…,
    /// "thumbURL":…}`, or `{"v":1,"op":"start"|"drop","c":…}`.
    init(json: LegacyJSONRecord) throws {
        guard try json.int("v") == 1 else { throw RecordFormatError(description: "message cache record version") }
        let name = try json.string("op")
        guard let operation = Operation.allCases.first(where: { "\($0)" == name }) else {
            throw RecordFormatError(description: "message cache operation \(name)")
        }
        self.init(operation, conversation: ConversationID(try json.string("c")))
        guard operation == .put else { return }
        guard let status = MessageStatus(rawValue: try json.string("status")) else {
            throw RecordFormatError(description: "message status \(try json.string("status"))")
        }
        message = Message(
            id: MessageID(try json.string("id")), conversationID: conversation,
            senderID: UserID(try json.string("sender")), text: try json.string("text"), timestamp: try json.date("ts"),
            status: status,
            media: json.optionalString("mediaURL").map {
                MediaAttachment(url: $0, thumbnailURL: json.optionalString("thumbURL"))
            })
    }
}
