import CourierData
import CourierDomain
import CourierStore
import Foundation

// MARK: - MessageRepository

extension HTTPChatClient: MessageRepository {
    /// `PUT /conversations/{id}/messages/{messageId}`: stores the message, or answers with the stored one when the
    /// id is known with the same content; `.conflict` when it is known with other content.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await request(.putMessage(message.conversationID, message.id), body: encoded(message), as: Message.self)
    }

    /// `POST /conversations/{id}/messages:batch`: the messages of one conversation in ONE request, applied in order,
    /// one result each. A transport failure or a refusal of the whole request throws for the whole batch.
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        guard let first = messages.first else { return [] }
        guard messages.allSatisfy({ $0.conversationID == first.conversationID }) else {
            throw DeliveryError.validation(reason: "a batch holds the messages of one conversation")
        }
        let response = try await request(
            .sendBatch(first.conversationID), body: encoded(HTTPWire.BatchRequest(messages: messages)),
            as: HTTPWire.BatchResponse.self)
        guard response.results.count == messages.count else {
            throw DeliveryError.unknown("the server answered \(response.results.count) results for \(messages.count)")
        }
        return response.results.map { item in
            if (200...299).contains(item.status), let message = item.message { return .success(message) }
            return .failure(HTTPWire.error(status: item.status, body: item.error))
        }
    }

    /// `GET /conversations/{id}/messages?limit=N&before=CURSOR`: `CURSOR` is the token the server gave with the page
    /// before (`nextCursor`, handed back as it came), or the position written out when the cursor has none.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        let before = cursor.map { $0.token ?? HTTPWire.text(of: $0) }
        return try await request(
            .messages(conversation, before: before, limit: limit), as: HTTPWire.MessagePageBody.self
        ).page
    }
}

// MARK: - ConversationRepository

extension HTTPChatClient: ConversationRepository {
    /// `GET /users/{id}/conversations?limit=N&after=CURSOR`.
    public func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        let route = HTTPRoute.conversations(of: user, after: cursor.map(HTTPWire.text(of:)), limit: limit)
        let body = try await request(route, as: HTTPWire.ConversationPageBody.self)
        return ConversationPage(conversations: body.conversations, hasMore: body.hasMore)
    }
}

// MARK: - UserRepository

extension HTTPChatClient: UserRepository {
    /// `GET /users?ids=a,b`: the known users among `ids`, in the order asked.
    public func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        guard !ids.isEmpty else { return [] }
        return try await request(.users(ids), as: [User].self)
    }

    /// `GET /presence?ids=a,b`: the presence of the known users among `ids`.
    public func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        guard !ids.isEmpty else { return [] }
        return try await request(.presence(ids), as: [Presence].self)
    }
}
