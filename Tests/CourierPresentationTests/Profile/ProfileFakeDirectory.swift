import CourierDomain

/// A user directory that logs the profile screen's edits (`update NAME`, `invalidate ID`).
@MainActor
final class ProfileFakeDirectory: EditableUserDirectory {
    private(set) var edits: [String] = []
    private var shown: [UserID: User] = [:]

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
}
