import CourierDomain
import Foundation

/// One record of the conversation cache's log, separate from the domain `Conversation` so the format can evolve on
/// its own.
///
/// Format version 1, JSON: `{"v":1,"id":…,"members":[…],"name":…,"activity":…,"unread":…,"last":{…}}` stores
/// a conversation as the list last saw it (`last` is the newest message, as a message-cache `put` record); a
/// later record of the same id replaces it.
struct ConversationCacheRecord: Codable, Equatable {
    static let currentVersion = 1

    var v: Int = ConversationCacheRecord.currentVersion
    var id: String
    var members: [String]
    var name: String?
    var activity: Date
    var unread: Int
    var last: MessageCacheRecord?

    /// A record storing `conversation`.
    init(_ conversation: Conversation) {
        id = conversation.id.rawValue
        members = conversation.participantIDs.map(\.rawValue)
        name = conversation.name
        activity = conversation.lastActivity
        unread = conversation.unreadCount
        last = conversation.lastMessage.map { MessageCacheRecord(put: $0) }
    }

    /// The conversation the record stores.
    var conversation: Conversation {
        Conversation(
            id: ConversationID(id), participantIDs: members.map { UserID($0) }, name: name,
            lastMessage: last?.message, lastActivity: activity, unreadCount: unread)
    }

    /// Decodes a record; nil for bytes that are not a record of a version this code reads.
    static func decode(_ data: Data, with decoder: JSONDecoder) -> ConversationCacheRecord? {
        guard let record = try? decoder.decode(ConversationCacheRecord.self, from: data), record.v == currentVersion
        else { return nil }
        return record
    }
}
