import CourierDomain

/// A user directory that answers from a fixed table at once, counts the ids it is asked for, and lets a test
/// announce a profile change.
@MainActor
public final class ConversationsListFakeDirectory: UserDirectory {
    private let observers = ObserverList<User>()
    private var table: [UserID: User]
    /// The ids of each `users(_:)` call, in order.
    public private(set) var lookups: [[UserID]] = []

    /// Creates a directory knowing `users`.
    public init(_ users: [User]) { table = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) }) }

    /// Whether anyone still observes the directory.
    public var hasObservers: Bool { !observers.isEmpty }

    /// Changes a profile and announces it.
    public func change(_ user: User) {
        table[user.id] = user
        observers.notify(user)
    }

    /// The known users among `ids`.
    public func users(_ ids: [UserID]) async -> [UserID: User] {
        lookups.append(ids)
        return table.filter { ids.contains($0.key) }
    }

    /// Nothing: presence is not the list's business.
    public func presence(_ ids: [UserID]) async -> [UserID: Presence] { [:] }

    /// Calls `observer` with every announced profile change, until the token is released.
    public func observe(_ observer: @escaping @MainActor (User) -> Void) -> ObservationToken { observers.add(observer) }
}
