import CourierDomain
import CourierStore
import Foundation

/// One record of the conversation cache's log: a conversation as the list last saw it (a later record of the same
/// id replaces it), separate from the domain `Conversation` so the format can evolve on its own. The body is
/// binary (docs/storage-format.md §4); version-1 JSON bodies of earlier builds are still read.
package struct ConversationCacheRecord: Equatable {
    /// The record format this code writes: 2, binary (1 was JSON).
    static let currentVersion: UInt8 = 2
    /// A conversation stored whole.
    private static let putKind: UInt8 = 1
    /// A conversation forgotten: deleted by the user (its later records, if any, bring it back).
    private static let removeKind: UInt8 = 2

    /// The conversation the record stores.
    package var conversation: Conversation

    /// A record storing `conversation`.
    package init(_ conversation: Conversation) { self.conversation = conversation }

    // MARK: - Coding

    /// The record's body: version byte, kind byte, then the conversation's fields.
    package func encoded() -> Data {
        var writer = BinaryRecordWriter(capacity: 160 + (conversation.lastMessage?.text.utf8.count ?? 0))
        writer.byte(Self.currentVersion)
        writer.byte(Self.putKind)
        writer.string(conversation.id.rawValue)
        writer.array(conversation.participantIDs) { $0.string($1.rawValue) }
        writer.optional(conversation.name) { $0.string($1) }
        writer.optional(conversation.lastMessage) { $0.message($1) }
        writer.double(conversation.lastActivity.timeIntervalSinceReferenceDate)
        writer.int(conversation.unreadCount)
        return writer.data
    }

    /// Reads a stored record, binary or a version-1 JSON one; throws for bytes that are not a record of a version
    /// this code reads.
    package static func decode(_ body: Data) throws -> ConversationCacheRecord {
        try LegacyJSONRecord.decode(body, version: currentVersion, json: Self.init(json:)) { reader in
            guard try reader.byte() == putKind else { throw RecordFormatError(description: "conversation record kind") }
            return ConversationCacheRecord(
                Conversation(
                    id: ConversationID(try reader.string()),
                    participantIDs: try reader.array { UserID(try $0.string()) },
                    name: try reader.optional { try $0.string() },
                    lastMessage: try reader.optional { try $0.message() },
                    lastActivity: Date(timeIntervalSinceReferenceDate: try reader.double()),
                    unreadCount: try reader.int()))
        }
    }

    /// The body of a record that forgets conversation `id`: version byte, kind 2, the id.
    package static func removal(of id: ConversationID) -> Data {
        var writer = BinaryRecordWriter(capacity: 16 + id.rawValue.utf8.count)
        writer.byte(currentVersion)
        writer.byte(removeKind)
        writer.string(id.rawValue)
        return writer.data
    }

    /// The conversation a removal record forgets; nil for any other body (a `put`, or bytes that are no record).
    package static func removedID(in body: Data) -> ConversationID? {
        guard body.count > 2, body[body.startIndex] == currentVersion, body[body.startIndex + 1] == removeKind
        else { return nil }
        return try? BinaryRecordReader.reading(body) { reader in
            _ = try reader.version(from: currentVersion, through: currentVersion)
            _ = try reader.byte()
            return ConversationID(try reader.string())
        }
    }

    /// A version-1 record: `{"v":1,"id":…,"members":[…],"name":…,"activity":…,"unread":…,"last":{…}}`, `last`
    /// being a version-1 message-cache `put`.
    init(json: LegacyJSONRecord) throws {
        guard try json.int("v") == 1 else { throw RecordFormatError(description: "conversation record version") }
        conversation = Conversation(
            id: ConversationID(try json.string("id")), participantIDs: try json.strings("members").map { UserID($0) },
            name: json.optionalString("name"),
            lastMessage: try json.object("last").map { try MessageCacheRecord(json: $0).message } ?? nil,
            lastActivity: try json.date("activity"), unreadCount: try json.int("unread"))
    }
}
