import Foundation

/// Where the offline write queue keeps its records: an append-only log of opaque records.
///
/// The seam is deliberately that small — load everything at open, append durably, compact — so that the
/// checksummed `RecordLog` backs it directly (`RecordLog.open` gives the records, `append(contentsOf:)` appends,
/// `compact(keeping:)` compacts). The queue owns the record format; storage never looks inside a record.
///
/// The queue calls a storage from its own executor only, one call at a time, and never shares it with another
/// queue while it is open.
public protocol WriteQueueStorage: Sendable {
    /// Every record stored, oldest first, as found when the queue opens.
    func loadRecords() throws -> [Data]
    /// Appends `records` in order; they are durable (written and synced) when this returns, or it throws and none
    /// of them counts.
    func append(_ records: [Data]) throws
    /// Replaces everything stored with `records`, atomically: after a crash either the old log or the new one is
    /// there, never a mix.
    func compact(keeping records: [Data]) throws
}
