import CourierDomain
import Testing

/// The user directory a test sets up: the one stand-in for `UserDirectory` and `EditableUserDirectory`. It answers
/// at once from a table of users and a table of presence, records every question and every edit, and lets a test
/// announce a profile change made elsewhere. A question it holds no answer for — profiles from a directory made
/// without users, presence from one made without presence — answers nothing and is recorded as a test issue naming
/// the call.
@MainActor
public final class FakeUserDirectory: EditableUserDirectory {
    private let observers = ObserverList<User>()
    private var table: [UserID: User]?
    private var presenceTable: [UserID: Presence]?
    /// The ids of each `users(_:)` call, in order.
    public private(set) var lookups: [[UserID]] = []
    /// The ids of each `presence(_:)` call, in order.
    public private(set) var presenceLookups: [[UserID]] = []
    /// The edits made through `EditableUserDirectory`, in order: `update NAME`, `invalidate ID`.
    public private(set) var edits: [String] = []
    /// The backend's profiles, which `reload(_:)` answers with; a user missing here is one the backend cannot
    /// answer about.
    public var backend: [UserID: User] = [:]

    /// A directory knowing `users` and their `presence`. Without users (nil, not an empty list) it expects no
    /// profile question; without presence, no presence question.
    public init(_ users: [User]? = nil, presence: [Presence]? = nil) {
        table = users.map { users in Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }) }
        presenceTable = presence.map { presence in
            Dictionary(presence.map { ($0.userID, $0) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// Whether anyone still observes the directory.
    public var hasObservers: Bool { !observers.isEmpty }

    /// A profile changed elsewhere (a fetch found a new name): serves it from now on and announces it.
    public func change(_ user: User) {
        table = (table ?? [:]).merging([user.id: user]) { _, new in new }
        observers.notify(user)
    }

    /// Serves `presence` for its user from now on (a status that changed).
    public func setPresence(_ presence: Presence) {
        presenceTable = (presenceTable ?? [:]).merging([presence.userID: presence]) { _, new in new }
    }

    // MARK: - UserDirectory

    /// The known users among `ids`.
    public func users(_ ids: [UserID]) async -> [UserID: User] {
        lookups.append(ids)
        return answer(ids, from: table, "users(_:)")
    }

    /// The profile of `id` if the table holds it, at once and unrecorded: what a directory holds on the device.
    public func cachedUser(_ id: UserID) -> User? { table?[id] }

    /// The known presence among `ids`.
    public func presence(_ ids: [UserID]) async -> [UserID: Presence] {
        presenceLookups.append(ids)
        return answer(ids, from: presenceTable, "presence(_:)")
    }

    /// Calls `observer` with every announced profile change, until the token is released.
    public func observe(_ observer: @escaping @MainActor (User) -> Void) -> ObservationToken { observers.add(observer) }

    // MARK: - EditableUserDirectory

    /// Serves `user` from now on, announces it, and records `update NAME`.
    public func update(_ user: User) {
        edits.append("update \(user.displayName)")
        change(user)
    }

    /// Forgets `id`, and records `invalidate ID`.
    public func invalidate(_ id: UserID) {
        edits.append("invalidate \(id.rawValue)")
        table?[id] = nil
    }

    /// Serves the backend's profile of `id` (as `update(_:)` does) or, when the backend has none, forgets it (as
    /// `invalidate(_:)` does).
    public func reload(_ id: UserID) async {
        if let user = backend[id] { update(user) } else { invalidate(id) }
    }

    /// The entries of `table` for `ids`; with no table (not set up), nothing, and an issue naming `call`.
    private func answer<Value>(_ ids: [UserID], from table: [UserID: Value]?, _ call: String) -> [UserID: Value] {
        guard let table else {
            Issue.record("FakeUserDirectory: \(call) was not expected")
            return [:]
        }
        return table.filter { ids.contains($0.key) }
    }
}
