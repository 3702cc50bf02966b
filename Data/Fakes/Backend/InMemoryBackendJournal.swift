import CourierData
import CourierDomain
import Foundation

/// A `BackendJournal` held in memory: for tests, and for a driver session that needs no persistence.
///
/// Sharing one instance between two backends stands in for "the same data directory after a restart".
public final class InMemoryBackendJournal: BackendJournal, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [BackendEvent]
    private var pendingFailure: (any Error)?

    /// Creates a journal holding `events` (empty by default).
    public init(events: [BackendEvent] = []) { stored = events }

    /// Every event appended so far, oldest first.
    public var events: [BackendEvent] { lock.withLock { stored } }

    /// Makes the next `append` throw `error` and keep nothing (a full disk, say); later appends work again.
    public func failNextAppend(with error: any Error) { lock.withLock { pendingFailure = error } }

    /// Every event appended so far, oldest first.
    public func load() throws -> [BackendEvent] { events }

    /// Appends `events`, or throws the failure set by `failNextAppend(with:)` and keeps nothing.
    public func append(_ events: [BackendEvent]) throws {
        try lock.withLock {
            if let failure = pendingFailure {
                pendingFailure = nil
                throw failure
            }
            stored += events
        }
    }
}
