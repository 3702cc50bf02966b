import CourierDomain

extension ConversationsListViewModel {
    /// Creates the conversation list from a session (`CourierClient` in an app): its conversations and user
    /// directory; call `load()` to show the first page.
    public convenience init(session: any MessagingSession, pageSize: Int = ConversationsListViewModel.pageSize) {
        self.init(
            currentUser: session.currentUser, conversations: session.conversations, users: session.userDirectory,
            clock: session.clock, pageSize: pageSize)
    }
}
