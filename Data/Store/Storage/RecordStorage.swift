#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a log-backed store keeps its records: an append-only sequence of opaque records. The write queue, the
/// message cache and the conversation cache all keep their state through this one seam.
///
/// The seam is deliberately that small — load everything at open, append durably, compact — so that the
/// checksummed `RecordLog` backs it directly (`RecordLogStorage`), and `InMemoryRecordStorage` stands in where
/// nothing needs to survive the process. The store owns the record format (docs/storage-format.md); storage never
/// looks inside a record.
///
/// A store calls its storage from one place at a time and never shares it with another store while it is open.
public protocol RecordStorage: AnyObject, Sendable {
    /// Every record stored, oldest first, as found when the store opens.
    func loadRecords() throws -> [Data]
    /// Appends `records` in order; they are durable (written and synced) when this returns, or it throws and none
    /// of them counts.
    func append(_ records: [Data]) throws
    /// Replaces everything stored with `records`, atomically: after a crash either the old records or the new are
    /// there, never a mix.
    func compact(keeping records: [Data]) throws
}
