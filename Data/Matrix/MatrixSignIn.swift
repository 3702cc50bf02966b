import CourierData
import CourierDomain
import Foundation

/// The client's sign-in to a homeserver: a password login (`POST /login`, `m.login.password`) whose token and
/// `device_id` are kept in a `TokenStore`, and renewed with the same device when the homeserver forgets the token.
/// A homeserver's tokens here do not expire by a date (`expiresAt` is far away); a refused one is renewed once.
actor MatrixSignIn {
    private let login: String
    private let password: String?
    private let store: any TokenStore
    private let transport: MatrixTransport
    private let clock: any Clock
    private var kept: SignInToken?
    private var loaded = false
    private var signingIn: Task<SignInToken, any Error>?

    init(login: String, password: String?, store: any TokenStore, transport: MatrixTransport, clock: any Clock) {
        self.login = login
        self.password = password
        self.store = store
        self.transport = transport
        self.clock = clock
    }

    /// The sign-in in force: the kept one, else a new login.
    func current() async throws(DeliveryError) -> SignInToken {
        if !loaded {
            loaded = true
            kept = try? store.load()
        }
        if let kept { return kept }
        return try await renew()
    }

    /// Whether a refused `token` may be replaced by signing in again: it is still the one in force and the client has
    /// the password.
    func canRenew(replacing token: String) -> Bool { password != nil && (kept == nil || kept?.token == token) }

    /// Signs in with the password, asking for the kept device (so the homeserver's memory of its `txnId`s stays
    /// this device's), keeps the answer and returns it. One login at a time: concurrent callers share it.
    func renew() async throws(DeliveryError) -> SignInToken {
        if let signingIn { return try await Self.awaited(signingIn) }
        guard let password else { throw DeliveryError.unauthorized }
        let device = kept?.deviceID ?? (try? store.load())?.deviceID
        let transport = transport
        let login = login
        let now = clock.now
        let task = Task<SignInToken, any Error> {
            var body: [String: Any] = [
                "type": "m.login.password", "identifier": ["type": "m.id.user", "user": login],
                "password": password, "initial_device_display_name": "Courier",
            ]
            if let device { body["device_id"] = device }
            let data = try await transport.call("POST", "v3/login", body: try MatrixClient.encode(body), token: nil)
            guard let answer = try? JSONDecoder().decode(LoginAnswer.self, from: data) else {
                throw DeliveryError.unknown("the homeserver's sign-in answer could not be read")
            }
            return SignInToken(
                user: UserID(answer.userID), token: answer.accessToken, expiresAt: .distantFuture,
                deviceID: answer.deviceID, grantedAt: now)
        }
        signingIn = task
        defer { signingIn = nil }
        // Even the same device id may be a new device to the homeserver (one signed out elsewhere is gone with its
        // `txnId`s), so what was composed before this sign-in is looked for before it is sent again.
        let token = try await Self.awaited(task)
        kept = token
        try? store.save(token)
        return token
    }

    /// Forgets the sign-in (after a sign-out).
    func forget() {
        kept = nil
        try? store.erase()
    }

    private static func awaited(_ task: Task<SignInToken, any Error>) async throws(DeliveryError) -> SignInToken {
        do { return try await task.value } catch let error as DeliveryError { throw error } catch {
            throw DeliveryError.unknown("\(error)")
        }
    }

    private struct LoginAnswer: Decodable {
        var userID: String
        var accessToken: String
        var deviceID: String

        private enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case accessToken = "access_token"
            case deviceID = "device_id"
        }
    }
}
