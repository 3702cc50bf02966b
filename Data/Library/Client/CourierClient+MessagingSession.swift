import CourierDomain

extension CourierClient {
    /// Users' names and presence as screens read them: the user cache.
    public var userDirectory: any UserDirectory { users }

    /// What arrives from others: the sync engine, or nothing when the client was given no feed.
    public var sync: any LiveSync { syncEngine ?? SilentSync() }
}
