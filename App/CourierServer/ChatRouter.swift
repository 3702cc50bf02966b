import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// Maps the REST contract of docs/http-api.md onto an `InMemoryChatBackend`: one request in, one response out.
///
/// Idempotency by message id is checked here, against what the backend stores: the same id with the same content is
/// answered with the stored message (200; 201 when new), the same id with other content is a 409 conflict and
/// changes nothing. Every request but a sign-in (`POST /sessions`) needs `Authorization: Bearer TOKEN` with a live
/// token of `sessions` (401 without); the token's user is the signed-in user, and the backend refuses what they may
/// not do (403, `InMemoryChatBackend`'s rules). The event feed's routes are in `ChatRouter+Feed`.
@MainActor
public final class ChatRouter {
    /// The largest page a client may ask for.
    public static let maxPageSize = 1_000

    let backend: InMemoryChatBackend
    let sessions: SignInAuthority
    let limits: ContentLimits
    let writeRates: WriteRates
    /// Whether the development routes (`POST /events/trim`) are answered; without them they are 404.
    let devRoutes: Bool

    /// Routes requests to `backend`, signed in by `sessions`, within `limits`; `devRoutes` answers the development
    /// routes, which change other users' state (`courier-server --dev-routes`).
    public init(
        backend: InMemoryChatBackend, sessions: SignInAuthority, limits: ContentLimits = ContentLimits(),
        devRoutes: Bool = false
    ) {
        self.backend = backend
        self.sessions = sessions
        self.limits = limits
        self.devRoutes = devRoutes
        writeRates = WriteRates(burst: limits.writeBurst, perSecond: limits.writesPerSecond)
    }

    /// Routes one request: `.hold` for a long poll (`GET /events` with a `timeout` above 0, well formed and signed
    /// in) that finds no event after its cursor, `.answer` with `respond(to:)`'s answer for everything else.
    public func route(_ request: HTTPRequest) -> ChatRoute {
        if let poll = heldPoll(for: request) { return .hold(poll) }
        return .answer(respond(to: request))
    }

    /// The user whose live token `request` presents; nil without one.
    public func signedInUser(of request: HTTPRequest) -> UserID? {
        Self.bearer(of: request).flatMap { sessions.user(presenting: $0) }
    }

    /// Answers one request at once; never throws, whatever the request holds. A long poll is answered with what
    /// waits now, empty or not: holding it is for `route(_:)`'s caller.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let segments = Self.segments(of: request.path) else {
            return failure(.validation(reason: "bad percent-encoding in the path"), status: 400)
        }
        if segments.contains(where: { $0.utf8.count > limits.maxIDBytes }) {
            return failure(.validation(reason: "a path segment (an id) is at most \(limits.maxIDBytes) bytes"))
        }
        if !segments.allSatisfy(ContentLimits.isOneSpelling) {
            return failure(.validation(reason: "a path segment (an id) is \(ContentLimits.idCharacters)"))
        }
        if segments == ["sessions"] {
            guard request.method == "POST" else {
                return failure(.validation(reason: "method \(request.method) not allowed here"), status: 405)
            }
            return signIn(body: request.body, client: request.client)
        }
        guard let token = Self.bearer(of: request), let user = sessions.user(presenting: token) else {
            return failure(.unauthorized)
        }
        do throws(DeliveryError) {
            switch (request.method, segments.count, segments.first) {
            case ("DELETE", 2, "sessions") where segments[1] == "current":
                try journaled { try sessions.revoke(token) }
                return HTTPResponse(status: 204)
            case ("POST", 3, "sessions") where segments[1] == "current" && segments[2] == "expire":
                try journaled { try sessions.expire(token) }
                return HTTPResponse(status: 204)
            case ("GET", 1, "events"):
                let query = try eventsQuery(request, user: user)
                return try events(for: user, after: query.after, limit: query.limit)
            case ("GET", 2, "events") where segments[1] == "end":
                return try ok(HTTPWire.FeedEndBody(position: backend.feedEnd(for: user, as: user)))
            case ("POST", 2, "events") where segments[1] == "trim" && devRoutes:
                try backend.trimFeeds()
                return HTTPResponse(status: 204)
            case ("GET", 1, "snapshot"):
                return try snapshot(for: user, request: request)
            case ("POST", 3, "conversations") where segments[2] == "receipts":
                return try receipt(in: segments[1], from: user, body: request.body)
            case ("POST", 3, "conversations") where segments[2] == "hide":
                try charge(1, by: user)
                try backend.hideConversation(ConversationID(segments[1]), for: user, as: user)
                return HTTPResponse(status: 204)
            case ("GET", 3, "conversations") where segments[2] == "reads":
                return try reads(in: segments[1], as: user)
            case ("DELETE", 4, "conversations") where segments[2] == "messages":
                try charge(1, by: user)
                try backend.deleteMessage(MessageID(segments[3]), in: ConversationID(segments[1]), by: user)
                return HTTPResponse(status: 204)
            case ("PUT", 4, "conversations") where segments[2] == "messages":
                return try putMessage(conversation: segments[1], id: segments[3], body: request.body, as: user)
            case ("POST", 3, "conversations") where segments[2] == "messages:batch":
                return try batch(conversation: segments[1], body: request.body, as: user)
            case ("GET", 3, "conversations") where segments[2] == "messages":
                return try page(conversation: segments[1], request: request, as: user)
            case ("GET", 2, "conversations"):
                return try conversation(segments[1], as: user)
            case ("GET", 3, "users") where segments[2] == "conversations":
                return try conversations(of: segments[1], request: request, as: user)
            case ("GET", 1, "users"):
                return try ok(backend.users(ids(request), as: user))
            case ("GET", 1, "presence"):
                return try ok(backend.presence(ids(request), as: user))
            case ("PUT", 3, "users") where segments[2] == "presence":
                let body = try decode(HTTPWire.PresenceBody.self, request.body)
                try charge(1, by: user)
                try backend.setPresence(of: UserID(segments[1]), online: body.isOnline, at: sessions.now, as: user)
                return HTTPResponse(status: 204)
            case ("PUT", 3, "users") where segments[2] == "display-name":
                let body = try decode(HTTPWire.DisplayNameBody.self, request.body)
                try limits.checkName(body.name)
                try charge(1, by: user)
                try backend.updateDisplayName(of: UserID(segments[1]), to: body.name, as: user)
                return HTTPResponse(status: 204)
            default:
                return Self.isKnown(segments, devRoutes: devRoutes)
                    ? failure(.validation(reason: "method \(request.method) not allowed here"), status: 405)
                    : failure(.notFound)
            }
        } catch {
            return failure(error)
        }
    }

    private func page(conversation: String, request: HTTPRequest, as user: UserID) throws(DeliveryError)
        -> HTTPResponse
    {
        let limit = try Self.limit(request)
        var cursor: MessageCursor?
        if let text = request.queryValue("before") {
            guard let parsed = HTTPWire.messageCursor(text) else { throw .validation(reason: "a malformed cursor") }
            cursor = parsed
        }
        let page = try backend.messages(in: ConversationID(conversation), before: cursor, limit: limit, as: user)
        let next = page.hasMore ? page.messages.first.map { HTTPWire.text(of: $0.cursor) } : nil
        return try ok(HTTPWire.MessagePageBody(messages: page.messages, hasMore: page.hasMore, nextCursor: next))
    }

    private func conversation(_ id: String, as user: UserID) throws(DeliveryError) -> HTTPResponse {
        let details = try backend.conversationDetails(ConversationID(id), as: user)
        return try ok(HTTPWire.ConversationBody(conversation: details.conversation, messageCount: details.messageCount))
    }

    private func conversations(of owner: String, request: HTTPRequest, as user: UserID) throws(DeliveryError)
        -> HTTPResponse
    {
        let limit = try Self.limit(request)
        var cursor: ConversationCursor?
        if let text = request.queryValue("after") {
            guard let parsed = HTTPWire.conversationCursor(text) else {
                throw .validation(reason: "a malformed cursor")
            }
            cursor = parsed
        }
        let page = try backend.conversations(of: UserID(owner), after: cursor, limit: limit, as: user)
        let last = page.hasMore ? page.conversations.last : nil
        let next = last.map { HTTPWire.text(of: ConversationCursor(lastActivity: $0.lastActivity, id: $0.id)) }
        return try ok(
            HTTPWire.ConversationPageBody(conversations: page.conversations, hasMore: page.hasMore, nextCursor: next))
    }

    // MARK: - Helpers

    /// Same message as far as the sender is concerned: the fields the client composed.
    static func sameContent(_ lhs: Message, _ rhs: Message) -> Bool {
        lhs.conversationID == rhs.conversationID && lhs.senderID == rhs.senderID && lhs.text == rhs.text
            && lhs.timestamp == rhs.timestamp && lhs.media == rhs.media
    }

    /// The token of `Authorization: Bearer TOKEN`; nil without one.
    static func bearer(of request: HTTPRequest) -> String? {
        guard let authorization = request.header("authorization"), authorization.hasPrefix("Bearer "),
            authorization.count > "Bearer ".count
        else { return nil }
        return String(authorization.dropFirst("Bearer ".count))
    }

    // MARK: - Sessions

    /// `POST /sessions`: 201 with a token, 401 for an unknown user or a wrong password, 429 with `Retry-After`
    /// while this client's sign-ins for the user are throttled.
    private func signIn(body: [UInt8], client: String) -> HTTPResponse {
        do throws(DeliveryError) {
            let credentials = try decode(HTTPWire.SignInBody.self, body)
            try limits.checkID(credentials.userID.rawValue, "a user id")
            guard credentials.password.utf8.count <= ContentLimits.maxPasswordBytes else {
                throw .validation(reason: "a password is at most \(ContentLimits.maxPasswordBytes) bytes")
            }
            let outcome: SignInAuthority.SignIn
            do {
                outcome = try sessions.signIn(credentials.userID, password: credentials.password, client: client)
            } catch {
                throw .server(code: 500)
            }
            switch outcome {
            case .granted(let token, let expiresAt):
                return try ok(HTTPWire.SessionBody(token: token, expiresAt: expiresAt), status: 201)
            case .refused:
                var response = failure(.unauthorized)
                response.body =
                    (try? HTTPWire.encode(
                        HTTPWire.ErrorBody(error: "unauthorized", reason: "unknown user or wrong password")))
                    .map(Array.init) ?? response.body
                return response
            case .throttled(let seconds):
                return failure(.rateLimited(retryAfter: .seconds(seconds)))
            }
        } catch {
            return failure(error)
        }
    }

    /// Runs a journaled change of the sessions; a journal that refuses it is a 500.
    private func journaled(_ change: () throws -> Bool) throws(DeliveryError) {
        do {
            _ = try change()
        } catch {
            throw .server(code: 500)
        }
    }

    static func segments(of path: String) -> [String]? {
        var result: [String] = []
        for piece in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = HTTPRequestParser.percentDecoded(piece), !decoded.isEmpty else { return nil }
            result.append(decoded)
        }
        return result
    }

    private static func isKnown(_ segments: [String], devRoutes: Bool) -> Bool {
        switch (segments.count, segments.first) {
        case (4, "conversations"): segments[2] == "messages"
        case (3, "conversations"):
            ["messages", "messages:batch", "receipts", "reads", "hide"]
                .contains(segments[2])
        case (2, "conversations"), (1, "users"), (1, "presence"), (1, "events"), (1, "snapshot"): true
        case (2, "sessions"): segments[1] == "current"
        case (3, "sessions"): segments[1] == "current" && segments[2] == "expire"
        case (2, "events"): segments[1] == "end" || (segments[1] == "trim" && devRoutes)
        case (3, "users"): ["conversations", "display-name", "presence"].contains(segments[2])
        default: false
        }
    }

    /// The query's `name` (by default `limit`): a whole number from 1 to `maxPageSize`, `defaultValue` when absent.
    static func limit(_ request: HTTPRequest, named name: String = "limit", defaultValue: Int = 50)
        throws(DeliveryError) -> Int
    {
        guard let text = request.queryValue(name) else { return defaultValue }
        guard let limit = Int(text), (1...maxPageSize).contains(limit) else {
            throw .validation(reason: "\(name) must be a whole number from 1 to \(maxPageSize)")
        }
        return limit
    }

    func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) throws(DeliveryError) -> Value {
        do {
            return try HTTPWire.decode(type, from: Data(body))
        } catch {
            throw .validation(reason: "the body is not a valid \(type)")
        }
    }

    func ok<Value: Encodable>(_ value: Value, status: Int = 200) throws(DeliveryError) -> HTTPResponse {
        do {
            return HTTPResponse(status: status, body: Array(try HTTPWire.encode(value)))
        } catch {
            throw .server(code: 500)
        }
    }
}
