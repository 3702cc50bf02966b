import CourierApp
import CourierData
import CourierDomain
import CourierHTTP
import CourierMatrix
import Foundation

/// The network backends `courier-driver` is built with: Courier's own server over `HTTPChatClient` and a Matrix
/// homeserver over `MatrixClient`. A target of its own, so that the driver of the in-process world
/// (`courier-driver-local`) links neither, nor the networking stack under them (issue 33).
public struct NetworkBackends: RemoteBackends {
    /// The backends.
    public init() {}

    public func server(baseURL: URL, user: UserID, password: String?, tokens: (any TokenStore)?, logger: Logger)
        -> any CourierServerConnection
    {
        HTTPChatClient(baseURL: baseURL, user: user, password: password, tokens: tokens, logger: logger)
    }

    public func matrix(
        homeserver: URL, login: String, password: String?, tokens: any TokenStore, clock: any Clock, logger: Logger
    ) -> any MatrixConnectionClient {
        MatrixClient(
            homeserver: MatrixHomeserver(baseURL: homeserver), login: login, password: password, tokens: tokens,
            clock: clock, logger: logger)
    }

    public func matrixSignIn(homeserver: URL, user: String, password: String?) async throws -> SignInToken {
        // A person waits for a sign-in anyway, and a loaded homeserver may take its time hashing a password.
        let client = MatrixClient(
            homeserver: MatrixHomeserver(baseURL: homeserver), login: user, password: password,
            timeout: .seconds(30))
        return try await client.signedIn()
    }

    public func matrixLocalPart(_ user: UserID) -> String { MatrixClient.localPart(user) }
}

extension HTTPChatClient: CourierServerConnection {}

extension MatrixClient: MatrixConnectionClient {}
