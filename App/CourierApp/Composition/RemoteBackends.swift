import CourierData
import CourierDomain
import Foundation

/// Courier's own server as the driver drives it (`--server`): the device's backend, the other people's clients
/// (`peer …`), and what the driver's commands ask of it beyond a backend.
public protocol CourierServerConnection: ChatBackend {
    /// Where the server is.
    var baseURL: URL { get }
    /// The conversation as the server keeps it (`server ID` prints its count).
    func conversationInfo(_ id: ConversationID) async throws -> HTTPWire.ConversationBody
    /// Deletes one of the signed-in user's messages for everyone.
    func deleteMessage(_ id: MessageID, in conversation: ConversationID) async throws
    /// Makes the server forget every event it keeps (a development route: `events trim`).
    func trimEvents() async throws
    /// Ends the current sign-in at the server (`auth expire`).
    func expireSignIn() async throws
    /// Signs in again (`auth renew`).
    @discardableResult
    func signIn() async throws -> SignInToken
}

/// A Matrix homeserver as the driver drives it (`--matrix`): the device's backend, and what the driver asks of it
/// beyond a backend.
public protocol MatrixConnectionClient: ChatBackend {
    /// Signs in again with the password (`auth renew`).
    @discardableResult
    func renewSignIn() async throws(DeliveryError) -> SignInToken
    /// A room this client has heard of, as a conversation: what a notification's payload would carry.
    func knownConversation(_ id: ConversationID) -> Conversation?
}

/// What the driver reaches over a network: Courier's own server and a Matrix homeserver.
///
/// `courier-driver` is built with them (`NetworkBackends`, in the `CourierAppRemote` target, on `CourierHTTP` and
/// `CourierMatrix`). `courier-driver-local`, the driver of the in-process world, is built without them and so links
/// no networking stack (issue 33): `courier` hands it every session without `--server` or `--matrix`.
public protocol RemoteBackends: Sendable {
    /// A client of the `courier-server` at `baseURL`, signed in as `user` with `password` (the demo password for
    /// the driver's own user and its peers), its token kept in `tokens` (in memory when nil).
    func server(baseURL: URL, user: UserID, password: String?, tokens: (any TokenStore)?, logger: Logger)
        -> any CourierServerConnection
    /// A client of the homeserver at `homeserver`, signed in as `login`, its sign-in kept in `tokens`.
    func matrix(
        homeserver: URL, login: String, password: String?, tokens: any TokenStore, clock: any Clock, logger: Logger
    ) -> any MatrixConnectionClient
    /// Signs in to the homeserver at `homeserver` as `user` with `password` (a person waits for it: a long timeout).
    func matrixSignIn(homeserver: URL, user: String, password: String?) async throws -> SignInToken
    /// The local part of a Matrix user id (`@ben:example.org` → `ben`); an id with none, as it is.
    func matrixLocalPart(_ user: UserID) -> String
}

/// Why the driver could not reach a network backend: it was built without them.
public struct NoRemoteBackends: Error, CustomStringConvertible {
    /// The option that needs one.
    public var option: String

    /// The error for `option`.
    public init(option: String) { self.option = option }

    public var description: String {
        "\(option) needs the networked driver (courier-driver); this one runs the in-process world only"
    }
}
