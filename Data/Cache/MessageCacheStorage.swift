import Foundation

/// Where `MessageCache` keeps its records: an append-only log of opaque records. This is the seam the storage
/// engine plugs into — a `RecordLog` adapter returns the records `RecordLog.open` replayed from `load()`, forwards
/// `append` to `append(contentsOf:)` and `compact` to `compact(keeping:)`.
public protocol MessageCacheStorage: AnyObject, Sendable {
    /// Every record stored, oldest first (read once, when the cache opens).
    func load() throws -> [Data]
    /// Appends records; durable when it returns, or throws and stored nothing.
    func append(_ records: [Data]) throws
    /// Replaces everything stored with `records` (atomically: the old records or the new, never a mix).
    func compact(keeping records: [Data]) throws
}
