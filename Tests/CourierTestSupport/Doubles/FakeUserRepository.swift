import CourierDomain
import Foundation

/// The user backend a test sets up: the one stand-in for `UserRepository`. It answers profiles from a table of users
/// it can rename and presence from the set of users it says are online, records every request, and throws `failure`
/// while one is set. A request it holds no answer for — profiles from a fake made without users, presence from one
/// made without `online` — throws `FakeCallError` and is recorded as a test issue naming the call.
public final class FakeUserRepository: UserRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var table: [UserID: User]?
    private let online: Set<UserID>?
    private var currentFailure: DeliveryError?
    private var profileRequests: [[UserID]] = []
    private var presenceRequests: [[UserID]] = []

    /// A backend holding `users`, which says the users in `online` are online and the others not. Without users (nil,
    /// not an empty list) it expects no profile request; without `online`, no presence request.
    public init(_ users: [User]? = nil, online: Set<UserID>? = nil) {
        table = users.map { users in Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }) }
        self.online = online
    }

    /// A backend holding `count` users, `u1` "User 1" to `uN` "User N", with `online` as in `init`.
    public static func numbered(_ count: Int, online: Set<UserID>? = nil) -> FakeUserRepository {
        FakeUserRepository(
            stride(from: 1, through: count, by: 1).map { User(id: UserID("u\($0)"), displayName: "User \($0)") },
            online: online)
    }

    /// The error every request throws, while one is set (see `fail(with:)`).
    public var failure: DeliveryError? { lock.withLock { currentFailure } }

    /// Makes every later request throw `error` (offline, an expired sign-in), or, with nil, answer again.
    public func fail(with error: DeliveryError?) { lock.withLock { currentFailure = error } }

    /// The ids of every profile request, in order (a failed request counts).
    public var profileCalls: [[UserID]] { lock.withLock { profileRequests } }
    /// The ids of every presence request, in order (a failed request counts).
    public var presenceCalls: [[UserID]] { lock.withLock { presenceRequests } }

    /// Gives `id` a new display name on the backend (a user who renamed themselves elsewhere).
    public func rename(_ id: UserID, to name: String) {
        lock.withLock { table?[id]?.displayName = name }
    }

    /// The profiles of the users asked about that the backend holds.
    public func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        try await DeliveryError.converting {
            guard lock.withLock({ table != nil }) else {
                throw FakeCallError.unexpected("users(_:)").recorded(by: "FakeUserRepository")
            }
            return try lock.withLock {
                profileRequests.append(ids)
                if let currentFailure { throw currentFailure }
                return ids.compactMap { table?[$0] }
            }
        }
    }

    /// Whether each user asked about is online.
    public func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        try await DeliveryError.converting {
            guard let online else { throw FakeCallError.unexpected("presence(_:)").recorded(by: "FakeUserRepository") }
            return try lock.withLock {
                presenceRequests.append(ids)
                if let currentFailure { throw currentFailure }
                return ids.map { Presence(userID: $0, isOnline: online.contains($0)) }
            }
        }
    }
}
