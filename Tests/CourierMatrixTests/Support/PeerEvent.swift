import Foundation

/// A message event as any client reads it from the homeserver: `m.room.message`, with the fields a user notices.
struct PeerEvent {
    /// The server's id for it, `$…`.
    let eventID: String
    /// Who sent it, `@ben-1f2e:localhost`.
    let sender: String
    /// Its text (`content.body`).
    let body: String
    /// Its whole content, extra keys included.
    let content: [String: Any]
    /// The server's clock when it stored the event, in milliseconds since 1970.
    let originServerTS: Int64
    /// The transaction id, echoed to the sending device only (`unsigned.transaction_id`).
    let transactionID: String?

    /// The event a JSON object describes, or nil when it is not a message event.
    init?(_ json: [String: Any]) {
        guard json["type"] as? String == "m.room.message", let eventID = json["event_id"] as? String,
            let sender = json["sender"] as? String, let content = json["content"] as? [String: Any]
        else { return nil }
        self.eventID = eventID
        self.sender = sender
        self.content = content
        body = content["body"] as? String ?? ""
        originServerTS = (json["origin_server_ts"] as? NSNumber)?.int64Value ?? 0
        transactionID = (json["unsigned"] as? [String: Any])?["transaction_id"] as? String
    }
}
