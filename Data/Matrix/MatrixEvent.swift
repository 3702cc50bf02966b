import CourierDomain
import Foundation

/// One room event as a homeserver gives it (a timeline, state or ephemeral event), with the content fields Courier
/// reads. Content is read leniently: a field of another type than expected reads as absent.
struct MatrixEvent: Decodable, Sendable {
    var type: String
    var eventID: String?
    var sender: String?
    var originServerTS: Int64?
    var stateKey: String?
    /// For an `m.room.redaction`: the event it redacts (top-level up to room version 10, in the content from 11).
    var redacts: String?
    var content: Content
    /// For an ephemeral `m.receipt`: event id → receipt type → user id.
    var receipts: [String: [String: [String: Ignored]]]?
    /// For `m.tag` room account data: the tags.
    var tags: [String: Ignored]?

    struct Content: Sendable {
        var body: String?
        var msgtype: String?
        var courierID: String?
        var name: String?
        var membership: String?
        var displayName: String?
    }

    private enum CodingKeys: String, CodingKey {
        case type, sender, content
        case eventID = "event_id"
        case originServerTS = "origin_server_ts"
        case stateKey = "state_key"
        case redacts
    }

    private enum ContentKeys: String, CodingKey {
        case body, msgtype, name, membership, tags, redacts
        case courierID = "courier.id"
        case displayName = "displayname"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        eventID = try? container.decodeIfPresent(String.self, forKey: .eventID)
        sender = try? container.decodeIfPresent(String.self, forKey: .sender)
        originServerTS = try? container.decodeIfPresent(Int64.self, forKey: .originServerTS)
        stateKey = try? container.decodeIfPresent(String.self, forKey: .stateKey)
        let fields = try? container.nestedContainer(keyedBy: ContentKeys.self, forKey: .content)
        func text(_ key: ContentKeys) -> String? { (try? fields?.decodeIfPresent(String.self, forKey: key)) ?? nil }
        content = Content(
            body: text(.body), msgtype: text(.msgtype), courierID: text(.courierID), name: text(.name),
            membership: text(.membership), displayName: text(.displayName))
        if type == "m.receipt" {
            receipts = try? container.decodeIfPresent([String: [String: [String: Ignored]]].self, forKey: .content)
        }
        if type == "m.tag" { tags = (try? fields?.decodeIfPresent([String: Ignored].self, forKey: .tags)) ?? nil }
        if type == "m.room.redaction" {
            redacts = (try? container.decodeIfPresent(String.self, forKey: .redacts)) ?? text(.redacts)
        }
    }

    /// The event as a Courier message of `room`, when it is a text message with a body: its id is Courier's id
    /// carried in the content (`courier.id`) when there is one, else the event id; its time is the homeserver's
    /// (`origin_server_ts`), the order the homeserver keeps.
    func message(in room: ConversationID) -> Message? {
        guard type == "m.room.message", let body = content.body, let sender, let eventID,
            let originServerTS
        else { return nil }
        let id = content.courierID.flatMap(MatrixEvent.courierID) ?? MessageID(eventID)
        return Message(
            id: id, conversationID: room, senderID: UserID(sender), text: body,
            timestamp: Date(timeIntervalSince1970: Double(originServerTS) / 1_000), status: .sent, serverID: eventID)
    }

    /// The event as the deletion of a message of `room`, when it is a redaction: the message is named by the Courier
    /// id the client learned for the redacted event (`id(of:)`), else by the event id, as an unknown message is, and
    /// by the event id as its `serverID` (a device that held it from an earlier process finds it by that).
    func deletion(in room: ConversationID, id: (String) -> MessageID?) -> MessageDeletion? {
        guard type == "m.room.redaction", let redacts, let sender else { return nil }
        return MessageDeletion(
            conversationID: room, messageID: id(redacts) ?? MessageID(redacts), deletedBy: UserID(sender),
            serverID: redacts)
    }

    /// A Courier id as a content field carries it, when it looks like one Courier makes (up to 64 letters, digits
    /// and dashes; never an event id's `$`): anything else is ignored, and the event id names the message.
    static func courierID(_ text: String) -> MessageID? {
        let shaped =
            !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { $0 == 45 || $0.isASCIIAlphanumeric }
        return shaped ? MessageID(text) : nil
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII letter or digit.
    fileprivate var isASCIIAlphanumeric: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}
