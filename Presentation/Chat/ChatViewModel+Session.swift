import CourierDomain

extension ChatViewModel {
    /// Creates the chat for `conversationID` from a session (`CourierClient` in an app), sharing `banner` with the
    /// other screens, in `strings`' words; call `start()` to show it.
    public convenience init(
        session: any MessagingSession, conversationID: ConversationID, title: String,
        banner: ConnectivityBannerViewModel, pageSize: Int = 50, strings: CourierStrings = .english
    ) {
        self.init(
            conversationID: conversationID, currentUser: session.currentUser, title: title, outbox: session.outbox,
            repository: session.messages, banner: banner, clock: session.clock, sync: session.sync,
            logger: session.logger, pageSize: pageSize, strings: strings)
    }
}
