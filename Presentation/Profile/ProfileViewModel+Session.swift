import CourierDomain

extension ProfileViewModel {
    /// Creates the profile screen from a session (`CourierClient` in an app) and its write queue and user directory,
    /// in `strings`' words.
    public convenience init(
        session: any MessagingSession, writes: any WriteQueue, users: any EditableUserDirectory,
        backend: any UserRepository, strings: CourierStrings = .english
    ) {
        self.init(
            currentUser: session.currentUser, writes: writes, users: users, backend: backend,
            connectivity: session.connectivity, clock: session.clock, strings: strings)
    }
}
