import CourierDomain

extension ProfileViewModel {
    /// Creates the profile screen from a session (`CourierClient` in an app), whose user directory shows the edits,
    /// and the write queue that delivers them, in `strings`' words.
    public convenience init(session: any MessagingSession, writes: any WriteQueue, strings: CourierStrings = .english) {
        self.init(
            currentUser: session.currentUser, writes: writes, users: session.users,
            connectivity: session.connectivity, clock: session.clock, strings: strings)
    }
}
