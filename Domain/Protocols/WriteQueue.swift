#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A durable queue of typed writes that reach the backend when the device is online. Enqueue returns
/// once the write is durable; `syncWhenOnline()` delivers through executors registered per kind. Lives on the main
/// actor with the outbox and the view models; its observers are called there.
@MainActor
public protocol WriteQueue: AnyObject {
    /// How many writes are queued.
    var count: Int { get }
    /// Every queued write, in delivery order.
    var allWrites: [PendingWrite] { get }
    /// Whether syncing waits for sign-in to be renewed.
    var isPausedForSignIn: Bool { get }
    /// The stale writes removed when the queue opened, oldest first: no event reported them, so whoever shows the
    /// queue reports them once.
    var expiredAtOpen: [PendingWrite] { get }
    /// Queues a write durably (replacing an older queued write with the same `key`) and returns it. Throws
    /// `WriteQueueError` for bad input and `StoreError` when it cannot be stored (full, too large, I/O).
    @discardableResult
    func enqueue<T: Encodable>(kind: String, key: String?, payload: T) throws -> PendingWrite
    /// Delivers queued writes when online; returns how many were delivered. A call made while a sync runs joins it.
    @discardableResult
    func syncWhenOnline() async -> Int
    /// Removes every queued write (durable).
    func clear() throws
    /// Sign-in was renewed: syncing may resume (the next `syncWhenOnline()` does the work).
    func signInRenewed()
    /// Calls `observer` with every event (`WriteQueueEvent`) until the token is released.
    func observe(_ observer: @escaping @MainActor (WriteQueueEvent) -> Void) -> ObservationToken
}
