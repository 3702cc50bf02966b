import CourierData
import CourierDomain
import CourierHTTP
import Foundation

/// Courier over a Matrix homeserver: the Domain's backend protocols (`MessageRepository`, `ConversationRepository`,
/// `UserRepository`, `EventFeed`) implemented by the Client-Server API on `URLSession`, so a `CourierClient` — its
/// outbox, caches, sync engine and screens — runs unchanged on a backend Courier did not write (docs/matrix.md).
///
/// What maps to what:
/// - **Sign-in** is a password login (`POST /login`) whose token and `device_id` are kept in the `TokenStore` given
///   (a `0600` file, or the Keychain). A later sign-in asks for the same device again: the homeserver's duplicate
///   protection lives per device.
/// - **A conversation** is a joined room; its id is the room id. Invitations are accepted as they come.
/// - **A message** is an `m.room.message` sent by `PUT …/send/m.room.message/{txnId}` with Courier's id as the
///   `txnId` and inside the content (`courier.id`); its time is the homeserver's (`origin_server_ts`), so the
///   device keeps the homeserver's order.
/// - **The feed** is `/sync` long polls; its positions are the homeserver's `next_batch` tokens, kept opaque; a
///   timeline the homeserver cut short (`limited`) is back-filled with `/messages` down to the cursor, and a room
///   whose gap is larger than `backfillLimit` is reported in the batch's `gaps`.
/// - **Receipts** are `m.read` both ways. A homeserver has no delivered receipt (`deliveredReceipts` is false).
/// - **Hiding** a conversation for this user is the room tag `u.courier.hidden`; a message in the room removes it.
///
/// **Exactly once beyond the homeserver's window.** A homeserver remembers a `txnId` per device for about a day
/// (Synapse: 24 h, and a sign-out forgets the device's). A send of a message composed before this device signed in,
/// or longer ago than `duplicateWindow`, first looks for it in the room's recent history by Courier's id, and
/// answers the stored event if it is there: a resend after the homeserver forgot never stores it twice. A stored
/// event whose text is not the message's (the homeserver keeps the first body sent under a `txnId` and silently
/// drops another) is `DeliveryError.conflict`, as on Courier's own backend: a resend an earlier attempt may have
/// stored reads the event back after its `PUT`; a first attempt, which nothing can be stored under yet, is answered
/// at its compose stamp, and its echo files it at the homeserver's time.
public final class MatrixClient: ChatBackend, Sendable {
    /// The room tag that hides a conversation from this user's list.
    public static let hiddenTag = "u.courier.hidden"
    /// How long after composing a message Courier trusts the homeserver to recognise its `txnId` (Synapse keeps
    /// them 24 h; an hour's margin).
    public static let duplicateWindow: Duration = .seconds(23 * 3_600)
    /// How long a request waits for a homeserver that accepted it and answers nothing before it is taken as
    /// unreachable (`DeliveryError.unanswered`; docs/reliability.md, "Lie-fi"): 10 s. Longer than
    /// `HTTPChatClient.unansweredBound` (5 s) because a homeserver that someone else runs is slower: Synapse on a
    /// loaded two-core machine was measured answering sends and syncs in more than 5 s.
    public static let unansweredBound: Duration = .seconds(10)

    /// The homeserver.
    public let homeserver: MatrixHomeserver
    /// The user to sign in as: a local part (`me`) or a full id (`@me:server`).
    public let login: String
    /// How many older events of one room a catch-up back-fills before it reports a gap instead.
    public let backfillLimit: Int
    let clock: any Clock
    let transport: MatrixTransport
    let signIn: MatrixSignIn
    let state = MatrixState()
    let logger: Logger

    /// A client of `homeserver` signing in as `login` with `password` (nil: only a kept sign-in is used), keeping
    /// its sign-in in `tokens` (in memory when nil). Requests give up after `timeout`.
    public init(
        homeserver: MatrixHomeserver, login: String, password: String?, tokens: (any TokenStore)? = nil,
        clock: any Clock = SystemClock(), timeout: Duration = MatrixClient.unansweredBound,
        backfillLimit: Int = 10_000,
        logger: Logger = .silent
    ) {
        self.homeserver = homeserver
        self.login = login
        self.clock = clock
        self.backfillLimit = max(1, backfillLimit)
        self.logger = logger
        transport = MatrixTransport(homeserver: homeserver, timeout: timeout)
        signIn = MatrixSignIn(
            login: login, password: password, store: tokens ?? MemoryTokenStore(), transport: transport, clock: clock)
    }

    // MARK: - Sign-in

    /// Signs in (or takes the kept sign-in) and returns it: its `user` is the full user id an app composes with.
    /// Throws `unauthorized` for a refused password, `unreachable`/`unanswered` when the homeserver does not answer.
    @discardableResult
    public func signedIn() async throws(DeliveryError) -> SignInToken { try await signIn.current() }

    /// Signs in again with the password, asking for the same device: what an app calls after an expired sign-in.
    @discardableResult
    public func renewSignIn() async throws(DeliveryError) -> SignInToken { try await signIn.renew() }

    /// Signs out (`POST /logout`): the homeserver forgets the device (and with it its `txnId`s), the client its
    /// sign-in.
    public func signOut() async throws(DeliveryError) {
        let token = try await signIn.current().token
        _ = try await transport.call("POST", "v3/logout", body: Data("{}".utf8), token: token)
        await signIn.forget()
    }

    /// The signed-in user's full id.
    var me: UserID {
        get async throws(DeliveryError) { try await signIn.current().user }
    }

    // MARK: - Requests

    /// One request, signed in; a token the homeserver no longer knows is replaced once by signing in again (same
    /// device) when the client has the password.
    func call(
        _ method: String, _ path: String, query: [URLQueryItem] = [], json: [String: Any]? = nil,
        held: Duration = .zero
    ) async throws(DeliveryError) -> Data {
        let body = try json.map { (object) throws(DeliveryError) -> Data in try Self.encode(object) }
        let token = try await signIn.current().token
        let reply = try await transport.answer(method, path, query: query, body: body, token: token, held: held)
        if (200...299).contains(reply.status) { return reply.data }
        let error = MatrixTransport.error(of: reply)
        guard error == .unauthorized, await signIn.canRenew(replacing: token) else { throw error }
        let renewed = try await signIn.renew().token
        return try await transport.call(method, path, query: query, body: body, token: renewed, held: held)
    }

    /// `value` decoded from a homeserver's answer; an unreadable one is `unknown`.
    func decode<Value: Decodable>(_ type: Value.Type, _ data: Data) throws(DeliveryError) -> Value {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw DeliveryError.unknown("the homeserver's answer could not be read")
        }
    }

    /// A JSON body.
    static func encode(_ object: [String: Any]) throws(DeliveryError) -> Data {
        do { return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) } catch {
            throw DeliveryError.validation(reason: "a request body could not be written")
        }
    }

    /// A filter, inline, as `/sync` and `/messages` take it.
    static func filter(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Milliseconds since 1970 of `date`, as the homeserver counts time.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
}
