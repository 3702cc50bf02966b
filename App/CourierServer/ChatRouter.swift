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
    /// The largest page a client may ask for (the contract's, `HTTPRoute.maxPageSize`).
    public static let maxPageSize = HTTPRoute.maxPageSize
    /// A page's size when the request names none.
    static let pageLimit = 50
    /// An event batch's size when the request names none.
    static let eventLimit = 100
    /// The messages of a batch applied in one main-actor turn (and one journal append): the client's own batch
    /// size, so its batches take one turn, and a larger batch lets other users' requests in between its turns.
    public static let batchTurn = 25
    /// The text a batch's turn holds at most, in UTF-8 bytes (a turn holds one message at least): a turn's work — its
    /// journal append and sync above all — grows with its bytes.
    public static let batchTurnBytes = 32_768

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

    /// The path's segments and the route of `request`, read from its bytes alone: pure, so a connection's thread reads
    /// it before the request joins the main actor's line (`HTTPRequest.prepared`).
    public nonisolated static func prepare(_ request: HTTPRequest) -> PreparedRequest {
        guard let segments = HTTPRoute.segments(ofPath: request.path) else {
            return PreparedRequest(segments: nil, route: .failure(.badPath))
        }
        // A list of ids loses its repeats here, off the main actor (the first of each kept, in order).
        let route = HTTPRoute.parse(method: request.method, segments: segments, query: request.query).map { route in
            switch route {
            case .users(let ids): HTTPRoute.users(firstOfEach(ids))
            case .presence(let ids): HTTPRoute.presence(firstOfEach(ids))
            default: route
            }
        }
        return PreparedRequest(segments: segments, route: route)
    }

    /// `ids` without repeats, the first of each kept, in order.
    private nonisolated static func firstOfEach(_ ids: [UserID]) -> [UserID] {
        var seen = Set<UserID>()
        return ids.filter { seen.insert($0).inserted }
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
    /// waits now, empty or not: holding it is for `route(_:)`'s caller. The route is the contract's table's
    /// (`HTTPRoute.parse`); the checks run in a fixed order — the path's encoding (400) and ids (422), then the
    /// sign-in (401), then the route (404, 405, a bad query 422), then the handler.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let prepared = request.prepared ?? Self.prepare(request)
        guard let segments = prepared.segments else {
            return failure(.validation(reason: "bad percent-encoding in the path"), status: 400)
        }
        if segments.contains(where: { $0.utf8.count > limits.maxIDBytes }) {
            return failure(.validation(reason: "a path segment (an id) is at most \(limits.maxIDBytes) bytes"))
        }
        if !segments.allSatisfy(ContentLimits.isOneSpelling) {
            return failure(.validation(reason: "a path segment (an id) is \(ContentLimits.idCharacters)"))
        }
        var parsed = prepared.route
        if !devRoutes, segments == HTTPRoute.trimEvents.segments { parsed = .failure(.notFound) }
        // The one route answered without a sign-in: its path with another method is 405 before a token is asked for.
        if segments == HTTPRoute.signIn.segments, parsed != .success(.signIn) {
            return refusal(.methodNotAllowed, method: request.method)
        }
        if parsed == .success(.signIn) { return signIn(body: request.body, client: request.client) }
        guard let token = Self.bearer(of: request), let user = sessions.user(presenting: token) else {
            return failure(.unauthorized)
        }
        switch parsed {
        case .failure(let refused): return refusal(refused, method: request.method)
        case .success(let route):
            do throws(DeliveryError) {
                return try answer(route, to: request, token: token, user: user)
            } catch {
                return failure(error)
            }
        }
    }

    /// The answer to `request`, whose route in the table is `route`, signed in as `user` by `token`.
    private func answer(_ route: HTTPRoute, to request: HTTPRequest, token: String, user: UserID)
        throws(DeliveryError) -> HTTPResponse
    {
        let body = request.body
        switch route {
        case .signIn:
            return signIn(body: body, client: request.client)
        case .signOut:
            try journaled { try sessions.revoke(token) }
            return HTTPResponse(status: 204)
        case .expireSession:
            try journaled { try sessions.expire(token) }
            return HTTPResponse(status: 204)
        case .events(let after, let limit, _):
            return try events(for: user, after: feedStart(after, user: user), limit: limit ?? Self.eventLimit)
        case .feedEnd:
            return try ok(HTTPWire.FeedEndBody(position: backend.feedEnd(for: user, as: user)))
        case .trimEvents:
            try backend.trimFeeds()
            return HTTPResponse(status: 204)
        case .snapshot(let conversations, let chats, let messages):
            return try snapshot(for: user, conversations: conversations, chats: chats, messages: messages)
        case .receipts(let conversation):
            return try receipt(in: conversation, from: user, body: body)
        case .hideConversation(let conversation):
            try charge(1, by: user)
            try backend.hideConversation(conversation, for: user, as: user)
            return HTTPResponse(status: 204)
        case .reads(let conversation):
            return try reads(in: conversation, as: user)
        case .deleteMessage(let conversation, let id):
            try charge(1, by: user)
            try backend.deleteMessage(id, in: conversation, by: user)
            return HTTPResponse(status: 204)
        case .putMessage(let conversation, let id):
            return try putMessage(
                conversation: conversation, id: id, body: body, decoded: request.prepared?.body, as: user)
        case .sendBatch(let conversation):
            return try batch(conversation: conversation, body: body, decoded: request.prepared?.body, as: user)
        case .messages(let conversation, let before, let limit):
            return try page(conversation: conversation, before: before, limit: limit, as: user)
        case .conversation(let conversation):
            return try self.conversation(conversation, as: user)
        case .conversations(let owner, let after, let limit):
            return try conversations(of: owner, after: after, limit: limit, as: user)
        case .users(let ids):
            return try ok(backend.users(checked(ids), as: user))
        case .presence(let ids):
            return try ok(backend.presence(checked(ids), as: user))
        case .setPresence(let owner):
            let body = try decode(HTTPWire.PresenceBody.self, body)
            try charge(1, by: user)
            try backend.setPresence(of: owner, online: body.isOnline, at: sessions.now, as: user)
            return HTTPResponse(status: 204)
        case .displayName(let owner):
            let body = try decode(HTTPWire.DisplayNameBody.self, body)
            try limits.checkName(body.name)
            try charge(1, by: user)
            try backend.updateDisplayName(of: owner, to: body.name, as: user)
            return HTTPResponse(status: 204)
        }
    }

    /// The answer to a request that is no route of the table: 404 for an unknown path, 405 for a known one asked
    /// with another method, 422 for a query the contract refuses (400 for a path that is not percent-encoded).
    private func refusal(_ refused: HTTPRoute.Refusal, method: String) -> HTTPResponse {
        switch refused {
        case .badPath: failure(.validation(reason: "bad percent-encoding in the path"), status: 400)
        case .notFound: failure(.notFound)
        case .methodNotAllowed: failure(.validation(reason: "method \(method) not allowed here"), status: 405)
        case .badQuery(let reason): failure(.validation(reason: reason))
        }
    }

    private func page(conversation: ConversationID, before: String?, limit: Int?, as user: UserID)
        throws(DeliveryError) -> HTTPResponse
    {
        var cursor: MessageCursor?
        if let before {
            guard let parsed = HTTPWire.messageCursor(before) else { throw .validation(reason: "a malformed cursor") }
            cursor = parsed
        }
        let page = try backend.messages(in: conversation, before: cursor, limit: limit ?? Self.pageLimit, as: user)
        let next = page.hasMore ? page.messages.first.map { HTTPWire.text(of: $0.cursor) } : nil
        return try ok(HTTPWire.MessagePageBody(messages: page.messages, hasMore: page.hasMore, nextCursor: next))
    }

    private func conversation(_ id: ConversationID, as user: UserID) throws(DeliveryError) -> HTTPResponse {
        let details = try backend.conversationDetails(id, as: user)
        return try ok(HTTPWire.ConversationBody(conversation: details.conversation, messageCount: details.messageCount))
    }

    private func conversations(of owner: UserID, after: String?, limit: Int?, as user: UserID)
        throws(DeliveryError) -> HTTPResponse
    {
        var cursor: ConversationCursor?
        if let after {
            guard let parsed = HTTPWire.conversationCursor(after) else {
                throw .validation(reason: "a malformed cursor")
            }
            cursor = parsed
        }
        let page = try backend.conversations(of: owner, after: cursor, limit: limit ?? Self.pageLimit, as: user)
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
    nonisolated static func bearer(of request: HTTPRequest) -> String? {
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
