import CourierDomain

/// A user directory that logs the profile screen's edits (`update NAME`, `invalidate ID`); a `reload` answers with
/// the backend's profile, `server`, or, when it has none (the backend cannot answer), forgets the user.
@MainActor
final class ProfileFakeDirectory: EditableUserDirectory {
    /// The backend's profile of the user; nil when the backend cannot answer.
    var server: User?
    private(set) var edits: [String] = []
    private var shown: [UserID: User] = [:]

    init(server: User?) {
        self.server = server
    }

    func users(_ ids: [UserID]) async -> [UserID: User] { shown.filter { ids.contains($0.key) } }

    func presence(_ ids: [UserID]) async -> [UserID: Presence] { [:] }

    func observe(_ observer: @escaping @MainActor (User) -> Void) -> ObservationToken { ObservationToken {} }

    func update(_ user: User) {
        shown[user.id] = user
        edits.append("update \(user.displayName)")
    }

    func invalidate(_ id: UserID) {
        shown[id] = nil
        edits.append("invalidate \(id.rawValue)")
    }

    func reload(_ id: UserID) async {
        if let server, server.id == id { update(server) } else { invalidate(id) }
    }
}
