import CourierData
import CourierDomain
import Foundation

extension MatrixClient: MessageRepository {
    /// Sends `message` as an `m.room.message` whose `txnId` is its id, and answers it `sent`. A message the
    /// homeserver may have forgotten sending (composed before this device signed in, or longer ago than
    /// `duplicateWindow`) is looked for in the room first; a stored event with another text under its id is
    /// `conflict`.
    ///
    /// The homeserver answers a `PUT` with an event id only. A first attempt (no attempt of it ended before: nothing
    /// can be stored under its `txnId`) is answered at its compose stamp, and the feed's echo, which carries the
    /// homeserver's time, files it where the homeserver did (`SyncEngine`): the send costs one request. A message an
    /// earlier attempt may have stored (an attempt ended with an error, or an interrupted send, which the outbox
    /// requeues with `unanswered`) is read back after the `PUT`: the homeserver answers a known `txnId` with the
    /// first event stored under it whatever the body sent now, so the stored event says whether it holds this text,
    /// and when it was stored.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        let session = try await signIn.current()
        guard message.senderID == session.user else { throw DeliveryError.forbidden }
        guard !message.text.isEmpty else { throw DeliveryError.validation(reason: "a message needs text") }
        if mayBeForgotten(message, signedInAt: session.grantedAt), let stored = try await arrived(message) {
            logger.log(.info, "matrix: \(message.id) had arrived already; not sent again")
            return try confirmed(stored, as: message)
        }
        let room = message.conversationID.rawValue
        let content: [String: Any] = ["msgtype": "m.text", "body": message.text, "courier.id": message.id.rawValue]
        let path = MatrixPath.join("v3", "rooms", room, "send", "m.room.message", message.id.rawValue)
        let answer = try decode(EventIDAnswer.self, try await call("PUT", path, json: content))
        if message.attempts == 0 && message.lastError == nil {
            var sent = message.acknowledged(at: clock.now)
            sent.serverID = answer.eventID
            state.learn(sent, eventID: answer.eventID)
            return sent
        }
        let event = try decode(
            MatrixEvent.self, try await call("GET", MatrixPath.join("v3", "rooms", room, "event", answer.eventID)))
        guard let stored = event.message(in: message.conversationID) else {
            throw DeliveryError.unknown("the homeserver stored \(answer.eventID) as something else than a message")
        }
        state.learn(stored, eventID: answer.eventID)
        return try confirmed(stored, as: message)
    }

    /// The page of up to `limit` messages just before `cursor` (the newest when nil), oldest first, in the
    /// homeserver's order: `/messages` backwards from the cursor's token (the `end` of the page before, which the
    /// page carried as its `olderToken`), or from the token this client kept where a page ended there, or from the
    /// event at the cursor (`/context`) when it knows neither (a cursor made on the device).
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        guard limit > 0 else { throw DeliveryError.validation(reason: "a page holds at least one message") }
        var from: String? = nil
        if let cursor {
            from = if let token = cursor.token { token } else { try await token(before: cursor, in: conversation) }
        }
        var collected: [Message] = []
        // A page whose every event is at or after the cursor (or not a message) is passed over, a bounded number of
        // times, so a page is never empty while older messages exist.
        for _ in 0..<20 {
            var query = [
                URLQueryItem(name: "dir", value: "b"), URLQueryItem(name: "limit", value: "\(min(limit, 1_000))"),
                URLQueryItem(name: "filter", value: Self.filter(["types": ["m.room.message"]])),
            ]
            if let from { query.append(URLQueryItem(name: "from", value: from)) }
            let page = try decode(
                MessagesAnswer.self,
                try await call("GET", MatrixPath.join("v3", "rooms", conversation.rawValue, "messages"), query: query))
            for event in page.chunk {
                guard let message = event.message(in: conversation), let eventID = event.eventID else { continue }
                state.learn(message, eventID: eventID)
                if cursor.map({ message.cursor < $0 }) ?? true { collected.append(message) }
            }
            from = page.chunk.isEmpty ? nil : page.end
            if !collected.isEmpty || from == nil { break }
        }
        let messages = Array(collected.prefix(limit).reversed())
        if let oldest = messages.first, let from { state.keepPageToken(from, before: oldest.cursor) }
        return MessagePage(messages: messages, hasMore: from != nil, olderToken: from)
    }

    // MARK: - Closing the homeserver's window

    /// Whether the homeserver may no longer recognise `message`'s `txnId`: composed before this device's sign-in
    /// (another device, or this one before a sign-out, may have sent it) or longer ago than the window.
    func mayBeForgotten(_ message: Message, signedInAt: Date?) -> Bool {
        if let signedInAt, message.timestamp < signedInAt { return true }
        return clock.now.timeIntervalSince(message.timestamp) > Self.duplicateWindow.timeInterval
    }

    /// `message` as the room holds it, found by Courier's id among this user's messages stored since it was composed
    /// (newest first, a bounded number of pages); nil when it never arrived.
    func arrived(_ message: Message) async throws(DeliveryError) -> Message? {
        let me = try await signIn.current().user
        // The homeserver's clock may run behind the device's: ten minutes' margin before the compose stamp.
        let earliest = Self.milliseconds(message.timestamp) - 600_000
        var from: String?
        for _ in 0..<50 {
            var query = [
                URLQueryItem(name: "dir", value: "b"), URLQueryItem(name: "limit", value: "100"),
                URLQueryItem(
                    name: "filter", value: Self.filter(["types": ["m.room.message"], "senders": [me.rawValue]])),
            ]
            if let from { query.append(URLQueryItem(name: "from", value: from)) }
            let page = try decode(
                MessagesAnswer.self,
                try await call(
                    "GET", MatrixPath.join("v3", "rooms", message.conversationID.rawValue, "messages"), query: query))
            for event in page.chunk {
                if event.content.courierID == message.id.rawValue,
                    let found = event.message(in: message.conversationID),
                    let eventID = event.eventID
                {
                    state.learn(found, eventID: eventID)
                    return found
                }
            }
            let older = page.chunk.last?.originServerTS.map { $0 < earliest } ?? true
            guard !older, let end = page.end else { return nil }
            from = end
        }
        return nil
    }

    /// The stored event as the answer to sending `message`: the same text (and sender) or a conflict.
    private func confirmed(_ stored: Message, as message: Message) throws(DeliveryError) -> Message {
        guard stored.id == message.id, stored.text == message.text, stored.senderID == message.senderID else {
            throw DeliveryError.conflict
        }
        return stored
    }

    /// The `/messages` token that pages backwards from just before `cursor`.
    private func token(before cursor: MessageCursor, in room: ConversationID) async throws(DeliveryError) -> String {
        if let token = state.pageToken(before: cursor) { return token }
        var eventID = state.eventID(of: cursor.id)
        if eventID == nil {
            let query = [
                URLQueryItem(name: "ts", value: "\(Self.milliseconds(cursor.timestamp))"),
                URLQueryItem(name: "dir", value: "f"),
            ]
            let path = MatrixPath.join("v1", "rooms", room.rawValue, "timestamp_to_event")
            eventID = try decode(EventIDAnswer.self, try await call("GET", path, query: query)).eventID
        }
        guard let eventID else { throw DeliveryError.notFound }
        let path = MatrixPath.join("v3", "rooms", room.rawValue, "context", eventID)
        let context = try decode(
            ContextAnswer.self, try await call("GET", path, query: [URLQueryItem(name: "limit", value: "0")]))
        guard let start = context.start else { throw DeliveryError.notFound }
        return start
    }
}

/// `{"event_id": "$…"}`.
struct EventIDAnswer: Decodable {
    var eventID: String

    private enum CodingKeys: String, CodingKey { case eventID = "event_id" }
}

/// A `/messages` page: events (newest first going backwards), and the token to go on from (none at the end).
struct MessagesAnswer: Decodable {
    var chunk: [MatrixEvent]
    var end: String?

    private enum CodingKeys: String, CodingKey { case chunk, end }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chunk = (try? container.decodeIfPresent([Lenient<MatrixEvent>].self, forKey: .chunk))?.compactMap(\.value) ?? []
        end = try? container.decodeIfPresent(String.self, forKey: .end)
    }
}

/// A `/context` answer's tokens.
struct ContextAnswer: Decodable {
    var start: String?
}
