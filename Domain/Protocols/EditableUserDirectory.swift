/// A `UserDirectory` that also shows edits made on this device before the backend has them: the profile screen
/// writes the new name here at once, and rolls it back here when the write is given up.
@MainActor
public protocol EditableUserDirectory: UserDirectory {
    /// A profile changed on this device: serve it from now on and tell observers.
    func update(_ user: User)
    /// Forgets everything held about `id`, so the next read fetches it.
    func invalidate(_ id: UserID)
}
