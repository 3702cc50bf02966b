import CourierDomain

extension ConnectivityBannerViewModel {
    /// Creates the banner and toast every screen shares, from a session (`CourierClient` in an app), in
    /// `strings`' words.
    public convenience init(
        session: any MessagingSession, actions: Actions = Actions(), promptsAtLaunch: Bool = false,
        strings: CourierStrings = .english
    ) {
        self.init(
            connectivity: session.connectivity, outbox: session.outbox, clock: session.clock, actions: actions,
            logger: session.logger, promptsAtLaunch: promptsAtLaunch, strings: strings)
    }
}
