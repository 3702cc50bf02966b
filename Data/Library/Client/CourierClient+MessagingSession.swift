import CourierDomain
import CourierStore

extension CourierClient {
    /// What arrives from others: the sync engine, or nothing when the client was given no feed.
    public var sync: any LiveSync { syncEngine ?? SilentSync() }
}
