import CourierData
import CourierDomain
import Foundation

/// Where the simulated backend keeps its accepted writes, so that its state survives a restart of the driver.
///
/// `InMemoryChatBackend` replays `load()` when it starts and calls `append(_:)` with every accepted write before it
/// answers the request: a write that was acknowledged is durable. An implementation that cannot append must throw
/// and keep nothing of the failed call; the backend then refuses the write and changes nothing.
public protocol BackendJournal: AnyObject {
    /// Every event appended so far, oldest first.
    func load() throws -> [BackendEvent]
    /// Appends `events`, in order, durably (all or nothing) before returning.
    func append(_ events: [BackendEvent]) throws
}
