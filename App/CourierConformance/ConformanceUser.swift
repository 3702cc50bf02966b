import CourierData
import CourierDomain
import Foundation

/// One signed-in user of the backend under test, and the requests the checks make as them. The helpers that return
/// a body expect the contract's success status and fail the check otherwise; `send` returns any answer.
struct ConformanceUser: Sendable {
    /// Who they are.
    let id: UserID
    /// Their bearer token.
    let token: String
    let http: ConformanceHTTP

    /// One request as this user, whatever it answers.
    func send(_ route: HTTPRoute, body: Data? = nil) async throws(ConformanceFailure) -> ConformanceReply {
        try await http.send(route, body: body, bearer: token)
    }

    /// `PUT /conversations/{id}/messages/{messageId}` of `message`.
    func put(_ message: Message) async throws(ConformanceFailure) -> ConformanceReply {
        try await send(.putMessage(message.conversationID, message.id), body: try Self.encode(message))
    }

    /// `POST /conversations/{id}/messages:batch` of `messages`.
    func batch(_ messages: [Message], in conversation: ConversationID) async throws(ConformanceFailure)
        -> ConformanceReply
    {
        let body = try Self.encode(HTTPWire.BatchRequest(messages: messages))
        return try await send(.sendBatch(conversation), body: body)
    }

    /// How many messages the backend holds in `conversation` (`GET /conversations/{id}`, 200 expected).
    func messageCount(in conversation: ConversationID) async throws(ConformanceFailure) -> Int {
        try await send(.conversation(conversation)).expect(200)
            .decode(HTTPWire.ConversationBody.self).messageCount
    }

    /// One page of `conversation`'s messages before `cursor` (the newest without one), 200 expected.
    func page(of conversation: ConversationID, before cursor: String? = nil, limit: Int)
        async
        throws(ConformanceFailure) -> HTTPWire.MessagePageBody
    {
        try await send(.messages(conversation, before: cursor, limit: limit)).expect(200)
            .decode(HTTPWire.MessagePageBody.self)
    }

    /// This user's conversations, page after page (at most `pages` of 100), 200 expected.
    func conversations(pages: Int = 20) async throws(ConformanceFailure) -> [Conversation] {
        var all: [Conversation] = []
        var cursor: String?
        for _ in 0..<pages {
            let page = try await send(.conversations(of: id, after: cursor, limit: 100)).expect(200)
                .decode(HTTPWire.ConversationPageBody.self)
            all += page.conversations
            guard page.hasMore, let next = page.nextCursor else { break }
            cursor = next
        }
        return all
    }

    /// The position of this user's newest event (`GET /events/end`), 200 expected.
    func feedEnd() async throws(ConformanceFailure) -> FeedPosition {
        try await send(.feedEnd).expect(200).decode(HTTPWire.FeedEndBody.self).position
    }

    /// `GET /events?after=N&limit=L` (from the oldest kept without `after`), whatever it answers.
    func events(after position: FeedPosition?, limit: Int = 1_000) async throws(ConformanceFailure)
        -> ConformanceReply
    {
        try await send(.events(after: position?.token, limit: limit, timeout: nil))
    }

    /// The events after `position`, page after page until none wait (at most `pages`), 200 expected.
    func allEvents(after position: FeedPosition, pages: Int = 100) async throws(ConformanceFailure)
        -> [HTTPWire.EventBody]
    {
        var all: [HTTPWire.EventBody] = []
        var cursor = position
        for _ in 0..<pages {
            let body = try await events(after: cursor).expect(200).decode(HTTPWire.EventsBody.self)
            all += body.events
            guard body.hasMore, cursor.precedes(body.end) == true else { break }
            cursor = body.end
        }
        return all
    }

    static func encode<Value: Encodable>(_ value: Value) throws(ConformanceFailure) -> Data {
        do {
            return try HTTPWire.encode(value)
        } catch {
            throw ConformanceFailure("could not encode a \(Value.self): \(error)")
        }
    }
}
