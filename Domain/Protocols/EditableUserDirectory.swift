/// A `UserDirectory` that also shows edits made on this device before the backend has them: the profile screen
/// writes the new name here at once, and rolls it back here when the write is given up.
@MainActor
public protocol EditableUserDirectory: UserDirectory {
    /// A profile changed on this device: serve it from now on and tell observers.
    func update(_ user: User)
    /// Forgets everything held about `id`, so the next read fetches it.
    func invalidate(_ id: UserID)
    /// Asks the backend for `id`'s profile past what is held, then serves and announces what it answers (as
    /// `update(_:)` does); when it cannot answer, forgets `id` (as `invalidate(_:)` does), so the next read asks. The
    /// profile screen rolls a given-up edit back with it.
    func reload(_ id: UserID) async
}
