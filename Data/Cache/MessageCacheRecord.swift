import CourierDomain
import Foundation

/// One record of the message cache's log, separate from the domain `Message` so the format can evolve on its own.
///
/// Format version 1, JSON: `{"v":1,"op":"put",...message fields...}` stores a delivered message (a later put of the
/// same id replaces it); `{"v":1,"op":"start","c":ID}` says the cache holds the conversation back to its first
/// message; `{"v":1,"op":"drop","c":ID}` forgets a conversation (evicted). Replaying the records in order, with the
/// same limits, rebuilds the cache.
struct MessageCacheRecord: Codable, Equatable {
    /// What a record does.
    enum Operation: String, Codable {
        case put, start, drop
    }

    static let currentVersion = 1

    var v: Int = MessageCacheRecord.currentVersion
    var op: Operation
    var c: String
    var id: String?
    var sender: String?
    var text: String?
    var ts: Date?
    var status: String?
    var mediaURL: String?
    var thumbURL: String?

    /// A record storing `message`.
    init(put message: Message) {
        op = .put
        c = message.conversationID.rawValue
        id = message.id.rawValue
        sender = message.senderID.rawValue
        text = message.text
        ts = message.timestamp
        status = message.status.rawValue
        mediaURL = message.media?.url
        thumbURL = message.media?.thumbnailURL
    }

    /// A record about a whole conversation (`start` or `drop`).
    init(_ op: Operation, conversation: ConversationID) {
        self.op = op
        c = conversation.rawValue
    }

    /// The message a `put` record stores; nil when the record is not a complete `put`.
    var message: Message? {
        guard op == .put, let id, let sender, let text, let ts, let status, let status = MessageStatus(rawValue: status)
        else { return nil }
        return Message(
            id: MessageID(id), conversationID: ConversationID(c), senderID: UserID(sender), text: text, timestamp: ts,
            status: status, media: mediaURL.map { MediaAttachment(url: $0, thumbnailURL: thumbURL) })
    }

    // MARK: - Coding

    /// The record's bytes.
    func encoded(with encoder: JSONEncoder) throws -> Data { try encoder.encode(self) }

    /// Decodes a record; nil for bytes that are not a record of a version this code reads.
    static func decode(_ data: Data, with decoder: JSONDecoder) -> MessageCacheRecord? {
        guard let record = try? decoder.decode(MessageCacheRecord.self, from: data), record.v == currentVersion
        else { return nil }
        return record
    }
}
