import CourierDomain

extension OfflineQueueViewModel {
    /// Creates the Offline Queue from a session (`CourierClient` in an app); `conversationName` names a
    /// conversation for the rows; its texts are `strings`'.
    public convenience init(
        session: any MessagingSession, conversationName: @escaping @MainActor (ConversationID) -> String,
        strings: CourierStrings = .english
    ) {
        self.init(
            outbox: session.outbox, clock: session.clock, conversationName: conversationName, logger: session.logger,
            strings: strings)
    }
}
