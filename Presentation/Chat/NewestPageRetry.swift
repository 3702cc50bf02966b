/// Why the chat asks for its newest page again, as a value: the chat holds one. A newest page that could not load
/// offline waits for the connection; one the device answered from its cache (the backend out of reach) may lack what
/// the backend got meanwhile, so it is asked for again once the device is back online or the feed is live; one that
/// failed (sign-in expired, the backend failing) is asked for again once the feed is live, and the error text its
/// failure showed is cleared then.
struct NewestPageRetry {
    /// Whether the newest page loads once the device is back online.
    private(set) var waitsForConnection = false
    /// Whether the newest page shown came from the device's cache.
    private var fromCache = false
    /// The newest page's failure, with the error text it showed (nil inside: none was shown).
    private var failure: String?? = nil

    /// Whether the newest page failed to load: more may come, whatever the window holds.
    var failed: Bool { failure != nil }

    /// Whether the newest page is asked for again once the feed is live.
    var waitsForLiveFeed: Bool { failed || fromCache }

    /// A page loaded while the chat held no page yet: a failure of the newest page before it is over.
    mutating func firstPageLoaded() { failure = nil }

    /// The newest page loaded, from the device's cache when `cached`: then it is asked for again.
    mutating func newestLoaded(cached: Bool) {
        fromCache = cached
        if cached { waitsForConnection = true }
    }

    /// The newest page could not load because the device is offline or the backend out of reach.
    mutating func newestUnreachable() { waitsForConnection = true }

    /// The newest page failed (a cancelled load is no failure), showing `text`.
    mutating func newestFailed(showing text: String?) { failure = .some(text) }

    /// The newest page is being asked for again (the device is back online, or the user asked for more): it no longer
    /// waits for the connection.
    mutating func retrying() { waitsForConnection = false }

    /// The newest page is asked for again now that the feed is live: nothing waits any more. Returns the error text
    /// the failure showed, to clear when the screen still shows it.
    mutating func feedLive() -> String? {
        let text = failure ?? nil
        self = NewestPageRetry()
        return text
    }
}
