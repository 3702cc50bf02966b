import CourierDomain
import CourierStore

/// What opening an `OfflineWriteQueue` found in its storage.
public struct WriteQueueOpenReport: Hashable, Sendable {
    /// How many writes are queued after opening.
    public var loaded: Int
    /// Writes that were older than the stale limit and were removed at open, oldest first.
    public var expired: [PendingWrite]
    /// Stored records that could not be read (corrupt, or of an unknown version) and were skipped.
    public var skippedRecords: Int

    /// Creates a report.
    public init(loaded: Int, expired: [PendingWrite], skippedRecords: Int) {
        self.loaded = loaded
        self.expired = expired
        self.skippedRecords = skippedRecords
    }
}
