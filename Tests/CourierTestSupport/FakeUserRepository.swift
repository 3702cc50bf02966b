import CourierDomain
import Foundation

/// A user backend a test sets up: it answers from a table of users it can rename, reports every user asked about
/// online, records every request, and throws `failure` while one is set.
public final class FakeUserRepository: UserRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var table: [UserID: User]
    private var currentFailure: DeliveryError?
    private var profileRequests: [[UserID]] = []
    private var presenceRequests: [[UserID]] = []

    /// A backend holding `users`.
    public init(_ users: [User] = []) {
        table = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// A backend holding `count` users, `u1` "User 1" to `uN` "User N".
    public static func numbered(_ count: Int) -> FakeUserRepository {
        FakeUserRepository(
            stride(from: 1, through: count, by: 1).map { User(id: UserID("u\($0)"), displayName: "User \($0)") })
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
        lock.withLock { table[id]?.displayName = name }
    }

    /// The profiles of the users asked about that the backend holds.
    public func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        try await DeliveryError.converting {
            try lock.withLock {
                profileRequests.append(ids)
                if let currentFailure { throw currentFailure }
                return ids.compactMap { table[$0] }
            }
        }
    }

    /// Every user asked about, online.
    public func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        try await DeliveryError.converting {
            try lock.withLock {
                presenceRequests.append(ids)
                if let currentFailure { throw currentFailure }
                return ids.map { Presence(userID: $0, isOnline: true) }
            }
        }
    }
}
