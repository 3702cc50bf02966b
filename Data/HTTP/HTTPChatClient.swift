import CourierData
import CourierDomain
import CourierStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chat backend over HTTP: the Domain repositories implemented by the REST contract of docs/http-api.md, on
/// `URLSession`.
///
/// Every request has a timeout (`unansweredBound` unless told otherwise); a transport failure becomes the
/// `DeliveryError` the retry policy understands: a refused connection → `.unreachable`; one the server accepted and
/// answered nothing on within the timeout (a frozen server: "lie-fi") → `.unanswered`. Neither is retried: the
/// backend is unreachable, the message waits queued, and the client's reachability probe says when it answers again
/// (an unanswered write may have arrived: it is resent under its id and stored once). A connection lost mid-answer
/// → `.timeout` (retried). HTTP statuses map as `HTTPWire.error(status:body:)` says. Sends are `PUT`s by message id, so a resend never stores twice.
///
/// Long polls of the event feed (`HTTPChatClient+Feed`) go on a session of their own, so a held poll never takes a
/// connection other requests wait for, and their timeout is the hold plus the usual one.
///
/// Every request carries `Authorization: Bearer TOKEN`. The client signs in by itself (`POST /sessions`) when it
/// holds no token — or the kept one has run out — and knows the user's password; the token is kept in the
/// `TokenStore` given (an app keeps it in the Keychain). A 401 answer is `.unauthorized`: sending pauses, and the
/// client no longer signs in by itself until the app calls `signIn()` (then `signInRenewed()` on its client).
public final class HTTPChatClient: ChatBackend, Sendable {
    /// Where the server is, e.g. `http://127.0.0.1:8080`; a path it has is kept, each route's path going under it
    /// (`HTTPRoute.url(against:)`).
    public let baseURL: URL
    /// The user this client signs in as.
    public let user: UserID
    /// How long a request waits for a server that accepted it and answers nothing before the server is taken as
    /// unreachable (docs/reliability.md, "Lie-fi"): 5 s, the same bound as the simulated network's.
    public static let unansweredBound: Duration = .seconds(5)
    /// How long a request may take, in whole seconds; a long poll gets its hold on top.
    let attemptSeconds: TimeInterval
    private let session: URLSession
    private let pollSession: URLSession
    private let password: String?
    let signInState: HTTPSignIn

    /// A client of the server at `baseURL` for `user`, giving up on a request after `timeout` (at least one second:
    /// FoundationNetworking on Linux counts request timeouts in whole seconds and fires a shorter one at once).
    /// With a `password` it signs in by itself when it holds no live token; `tokens` keeps the token between
    /// launches (in memory when nil).
    public init(
        baseURL: URL, user: UserID, password: String? = nil, tokens: (any TokenStore)? = nil,
        timeout: Duration = unansweredBound, logger: Logger = .silent
    ) {
        self.baseURL = baseURL
        self.user = user
        self.password = password
        signInState = HTTPSignIn(
            user: user, store: tokens ?? MemoryTokenStore(), canSignIn: password != nil, logger: logger)
        let seconds = max(1, timeout.timeInterval.rounded(.up))
        attemptSeconds = seconds
        session = HTTPTransfer.session(timeout: seconds, connections: 4)
        // Each poll sets its own timeout (its hold plus `seconds`); the session's only has to let the longest pass.
        pollSession = HTTPTransfer.session(timeout: seconds + HTTPWire.maxEventWait.timeInterval + 1, connections: 2)
    }

    deinit {
        session.finishTasksAndInvalidate()
        pollSession.finishTasksAndInvalidate()
    }

    // MARK: - Admin reads

    /// The conversation as the server keeps it and how many messages it stores; `.notFound` for an unknown id.
    public func conversationInfo(_ id: ConversationID) async throws -> HTTPWire.ConversationBody {
        try await request(.conversation(id), as: HTTPWire.ConversationBody.self)
    }

    /// Changes a user's display name (`PUT /users/{id}/display-name`).
    public func updateDisplayName(of user: UserID, to name: String) async throws {
        let body = try encoded(HTTPWire.DisplayNameBody(name: name))
        _ = try await exchange(.displayName(user), body: body)
    }

    /// Tells the server this user's device connected (`online`) or disconnected (`PUT /users/{id}/presence`):
    /// what others see under a chat's title.
    public func setPresence(online: Bool) async throws {
        let body = try encoded(HTTPWire.PresenceBody(isOnline: online))
        _ = try await exchange(.setPresence(user), body: body)
    }

    /// Hides `conversation` from the signed-in user's list (`POST /conversations/{id}/hide`): the others keep it.
    public func hideConversation(_ conversation: ConversationID) async throws {
        _ = try await exchange(.hideConversation(conversation))
    }

    /// Deletes a message the signed-in user sent, for everyone (`DELETE /conversations/{id}/messages/{messageId}`):
    /// every participant's feed hears of it, and its id is never stored again.
    public func deleteMessage(_ id: MessageID, in conversation: ConversationID) async throws {
        _ = try await exchange(.deleteMessage(conversation, id))
    }

    // MARK: - Transport

    /// Sends one request and decodes a 2xx answer as `Value`; any other answer throws its `DeliveryError`.
    func request<Value: Decodable>(_ route: HTTPRoute, body: Data? = nil, as type: Value.Type)
        async throws(DeliveryError) -> Value
    {
        let data = try await exchange(route, body: body)
        do {
            return try HTTPWire.decode(type, from: data)
        } catch {
            throw DeliveryError.unknown("the server's answer could not be read")
        }
    }

    /// Sends one request; returns the body of a 2xx answer, throws the `DeliveryError` of any other.
    func exchange(_ route: HTTPRoute, body: Data? = nil) async throws(DeliveryError) -> Data {
        let reply = try await answer(route, body: body)
        guard (200...299).contains(reply.status) else { throw reply.error }
        return reply.data
    }

    /// Sends one request, signed in, and returns its answer, whatever its status; throws only for a transport
    /// failure or a sign-in that could not be made.
    func answer(_ route: HTTPRoute, body: Data? = nil) async throws(DeliveryError) -> Reply {
        let token = try await signedIn()
        let reply = try await unsignedAnswer(route, body: body, bearer: token)
        guard reply.status == 401 else {
            await signInState.accepted(token)
            return reply
        }
        guard await signInState.refused(token) else { return reply }
        let renewed = try await signedIn()
        let again = try await unsignedAnswer(route, body: body, bearer: renewed)
        if again.status == 401 { _ = await signInState.refused(renewed) } else { await signInState.accepted(renewed) }
        return again
    }

    /// The token to present, signing in first when the client may and has none (`HTTPSignIn.token(granting:)`).
    private func signedIn() async throws(DeliveryError) -> String? {
        try await DeliveryError.converting { try await signInState.token { [self] in try await grantSignIn() } }
    }

    /// `value` as a request's JSON body.
    func encoded<Value: Encodable>(_ value: Value) throws(DeliveryError) -> Data {
        do { return try HTTPWire.encode(value) } catch { throw DeliveryError(error) }
    }

    /// Sends one request with `bearer` (or none) and returns its answer, whatever its status. A route the server may
    /// hold (a long poll) goes on the poll session, with its hold on top of the usual timeout.
    func unsignedAnswer(_ route: HTTPRoute, body: Data? = nil, bearer: String?) async throws(DeliveryError) -> Reply {
        guard var request = route.request(against: baseURL, bearer: bearer, body: body) else {
            throw DeliveryError.validation(reason: "no URL for \(route) under \(baseURL)")
        }
        let held = route.hold
        guard held > .zero else { return try await perform(request, on: session) }
        request.timeoutInterval = attemptSeconds + held.timeInterval.rounded(.up)
        return try await perform(request, on: pollSession)
    }

    /// One answer: its body, status and the wait a 429 asked for.
    struct Reply: Sendable {
        /// The body.
        var data: Data
        /// The status.
        var status: Int
        /// `Retry-After`, when the answer carried a readable one.
        var retryAfter: Duration?

        /// The `DeliveryError` of a non-2xx answer.
        var error: DeliveryError {
            HTTPWire.error(
                status: status, body: try? HTTPWire.decode(HTTPWire.ErrorBody.self, from: data), retryAfter: retryAfter)
        }
    }

    // MARK: - Sign-in

    /// Signs in (`POST /sessions`) with the password the client was given, keeps the token and returns it: what an
    /// app calls when the user signs in again after an expiry, before `signInRenewed()`. Throws `.unauthorized` for a
    /// refused password (or none given), `.rateLimited` while this user's sign-ins are throttled.
    @discardableResult
    public func signIn() async throws -> SignInToken {
        try await signInState.signIn { [self] in try await grantSignIn() }
    }

    /// Signs out (`DELETE /sessions/current`): the server revokes the token and the client forgets it.
    public func signOut() async throws {
        let token = try await signInState.token { [self] in try await grantSignIn() }
        let reply = try await unsignedAnswer(.signOut, bearer: token)
        guard (200...299).contains(reply.status) || reply.status == 401 else { throw reply.error }
        await signInState.forget()
    }

    /// Asks the server to make the current token expire now (`POST /sessions/current/expire`, a development route
    /// of `courier-server`): the next request answers 401, as after a real expiry.
    public func expireSignIn() async throws {
        _ = try await exchange(.expireSession)
    }

    private func grantSignIn() async throws -> SignInToken {
        guard let password else { throw DeliveryError.unauthorized }
        let body = try HTTPWire.encode(HTTPWire.SignInBody(userID: user, password: password))
        let reply = try await unsignedAnswer(.signIn, body: body, bearer: nil)
        guard (200...299).contains(reply.status) else { throw reply.error }
        guard let session = try? HTTPWire.decode(HTTPWire.SessionBody.self, from: reply.data) else {
            throw DeliveryError.unknown("the server's answer could not be read")
        }
        return SignInToken(user: user, token: session.token, expiresAt: session.expiresAt)
    }

    /// Runs the request; a cancelled caller cancels it (`cancelled`).
    private func perform(_ request: URLRequest, on session: URLSession) async throws(DeliveryError) -> Reply {
        let (data, response) = try await HTTPTransfer.perform(request, on: session)
        let wait = HTTPWire.retryAfter(response.value(forHTTPHeaderField: HTTPWire.retryAfterHeader))
        return Reply(data: data, status: response.statusCode, retryAfter: wait)
    }

    /// The `DeliveryError` of a transport failure.
    static func deliveryError(for error: any Error) -> DeliveryError { HTTPTransfer.deliveryError(for: error) }
}
