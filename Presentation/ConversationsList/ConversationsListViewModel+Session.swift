import CourierDomain

extension ConversationsListViewModel {
    /// Creates the conversation list from a session (`CourierClient` in an app): its conversations, user directory,
    /// outbox and sync, so messages sent and arriving move it by themselves; call `load()` to show the first page.
    /// Its texts are `strings`'.
    public convenience init(
        session: any MessagingSession, pageSize: Int = ConversationsListViewModel.pageSize,
        strings: CourierStrings = .english
    ) {
        self.init(
            currentUser: session.currentUser, conversations: session.conversations, users: session.users,
            clock: session.clock, outbox: session.outbox, sync: session.sync, pageSize: pageSize,
            deleter: session.conversationDeletion, strings: strings)
    }
}
