import CourierDomain
import CourierStore
import Foundation

/// The JSON bodies and status codes of the REST contract (docs/http-api.md), shared by `HTTPChatClient` and the
/// server so the two cannot drift apart. Dates travel as JSON numbers: seconds since 2001-01-01T00:00:00Z, printed
/// in Swift's shortest round-tripping form, so a cursor or a timestamp comes back bit for bit.
public enum HTTPWire {
    // MARK: - Bodies

    /// An error answer: `{"error": "conflict", "reason": "…"}`.
    public struct ErrorBody: Codable, Equatable, Sendable {
        /// The error's name (`unauthorized`, `forbidden`, `notFound`, `conflict`, `validation`, `server`, …).
        public var error: String
        /// Details for a person, when there are any.
        public var reason: String?
        /// Creates an error body.
        public init(error: String, reason: String? = nil) {
            self.error = error
            self.reason = reason
        }
    }

    /// `POST /conversations/{id}/messages:batch`: the messages of one conversation, in compose order.
    public struct BatchRequest: Codable, Sendable {
        /// The messages, applied in this order.
        public var messages: [Message]
        /// Creates a batch.
        public init(messages: [Message]) { self.messages = messages }
    }

    /// One result of a batch: the stored message, or the status and error it would have had alone.
    public struct BatchItem: Codable, Sendable {
        /// The status a single `PUT` of this message would have answered.
        public var status: Int
        /// The stored message (2xx).
        public var message: Message?
        /// Why it was refused (4xx, 5xx).
        public var error: ErrorBody?
        /// Creates an item.
        public init(status: Int, message: Message? = nil, error: ErrorBody? = nil) {
            self.status = status
            self.message = message
            self.error = error
        }
    }

    /// The answer to a batch: one item per message, in order.
    public struct BatchResponse: Codable, Sendable {
        /// The results.
        public var results: [BatchItem]
        /// Creates a response.
        public init(results: [BatchItem]) { self.results = results }
    }

    /// A page of messages, oldest first; `nextCursor` asks for the page before it.
    public struct MessagePageBody: Codable, Sendable {
        /// The messages.
        public var messages: [Message]
        /// Whether older messages exist.
        public var hasMore: Bool
        /// The `before` value of the next (older) page, when `hasMore`: opaque to a client, which hands it back as it
        /// came (`MessagePage.olderToken`).
        public var nextCursor: String?
        /// Creates a page body.
        public init(messages: [Message], hasMore: Bool, nextCursor: String?) {
            self.messages = messages
            self.hasMore = hasMore
            self.nextCursor = nextCursor
        }

        /// The page it carries, with `nextCursor` as the backend's token for the page before it.
        public var page: MessagePage { MessagePage(messages: messages, hasMore: hasMore, olderToken: nextCursor) }
    }

    /// A page of conversations, most recent activity first; `nextCursor` asks for the page after it.
    public struct ConversationPageBody: Codable, Sendable {
        /// The conversations.
        public var conversations: [Conversation]
        /// Whether more follow.
        public var hasMore: Bool
        /// The `after` value of the next page, when `hasMore`.
        public var nextCursor: String?
        /// Creates a page body.
        public init(conversations: [Conversation], hasMore: Bool, nextCursor: String?) {
            self.conversations = conversations
            self.hasMore = hasMore
            self.nextCursor = nextCursor
        }
    }

    /// `GET /conversations/{id}`: the conversation and how many messages the server holds for it.
    public struct ConversationBody: Codable, Sendable {
        /// The conversation.
        public var conversation: Conversation
        /// Messages stored.
        public var messageCount: Int
        /// Creates a body.
        public init(conversation: Conversation, messageCount: Int) {
            self.conversation = conversation
            self.messageCount = messageCount
        }
    }

    /// `PUT /users/{id}/presence`.
    public struct PresenceBody: Codable, Sendable {
        /// Whether the user's device is connected.
        public var isOnline: Bool
        /// Creates a body.
        public init(isOnline: Bool) { self.isOnline = isOnline }
    }

    /// `PUT /users/{id}/display-name`'s body.
    public struct DisplayNameBody: Codable, Sendable {
        /// The new name.
        public var name: String
        /// Creates a body.
        public init(name: String) { self.name = name }
    }

    // MARK: - Status codes

    /// The status a `DeliveryError` is answered with.
    public static func status(for error: DeliveryError) -> Int {
        switch error.kind {
        case .unauthorized: 401
        case .forbidden: 403
        case .rateLimited: 429
        case .notFound: 404
        case .conflict: 409
        case .validation: 422
        case .server(let code): (500...599).contains(code) ? code : 500
        case .timeout, .unanswered: 504
        case .offline, .unreachable: 503
        case .unknown, .cancelled: 500
        }
    }

    /// The error body of `error`.
    public static func body(for error: DeliveryError) -> ErrorBody {
        switch error.kind {
        case .validation(let reason): ErrorBody(error: "validation", reason: reason)
        case .unknown(let text): ErrorBody(error: "unknown", reason: text)
        case .server(let code): ErrorBody(error: "server", reason: "status \(code)")
        case .rateLimited: ErrorBody(error: "rateLimited")
        default: ErrorBody(error: "\(error)")
        }
    }

    /// The `DeliveryError` a status means to the client: 401 unauthorized, 403 forbidden, 404 not found,
    /// 409 conflict, 408 a timeout, 429 rate limited (waiting `retryAfter`, 1 s when the answer named no wait), 5xx
    /// retryable server errors, any other 4xx a validation error.
    public static func error(status: Int, body: ErrorBody?, retryAfter: Duration? = nil) -> DeliveryError {
        switch status {
        case 429: .rateLimited(retryAfter: retryAfter ?? .seconds(1))
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 408: .timeout
        case 500...599: .server(code: status)
        case 400...499: .validation(reason: body?.reason ?? body?.error ?? "status \(status)")
        default: .unknown("unexpected status \(status)")
        }
    }

    /// The wait a `Retry-After` value asks for: whole seconds from 0 to a day; nil for anything else (an HTTP date
    /// included: the servers of this contract send seconds).
    public static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), (0...86_400).contains(seconds)
        else { return nil }
        return .seconds(seconds)
    }

    // MARK: - Cursors

    /// A message cursor as a query value: `TIMESTAMP~ID`.
    public static func text(of cursor: MessageCursor) -> String {
        "\(cursor.timestamp.timeIntervalSinceReferenceDate)~\(cursor.id.rawValue)"
    }

    /// The message cursor of a query value; nil when malformed.
    public static func messageCursor(_ text: String) -> MessageCursor? {
        guard let (time, id) = split(text) else { return nil }
        return MessageCursor(timestamp: time, id: MessageID(id))
    }

    /// A conversation cursor as a query value: `LAST_ACTIVITY~ID`.
    public static func text(of cursor: ConversationCursor) -> String {
        "\(cursor.lastActivity.timeIntervalSinceReferenceDate)~\(cursor.id.rawValue)"
    }

    /// The conversation cursor of a query value; nil when malformed.
    public static func conversationCursor(_ text: String) -> ConversationCursor? {
        guard let (time, id) = split(text) else { return nil }
        return ConversationCursor(lastActivity: time, id: ConversationID(id))
    }

    private static func split(_ text: String) -> (Date, String)? {
        guard let tilde = text.firstIndex(of: "~"), let seconds = Double(text[..<tilde]), seconds.isFinite else {
            return nil
        }
        let id = String(text[text.index(after: tilde)...])
        guard !id.isEmpty else { return nil }
        return (Date(timeIntervalSinceReferenceDate: seconds), id)
    }

    // MARK: - Coding

    /// The encoder of every body.
    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        try JSONEncoder().encode(value)
    }

    /// The decoder of every body.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }
}
