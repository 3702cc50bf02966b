import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `RecordStorage` backed by a checksummed `RecordLog` file: records replayed at open (torn tail truncated,
/// corrupt records skipped and reported), appends synced before they return, compaction by atomic rename.
public final class RecordLogStorage: RecordStorage, @unchecked Sendable {
    private let log: RecordLog
    private let lock = Lock()
    private var replayed: [Data]?

    /// What opening the file found (damage repaired, records kept).
    public let report: RecoveryReport

    /// Opens (or creates) the log at `path`; `StoreError.locked(path:)` when it is open already, in this process or
    /// another (one owner per file until `close()`, which may be called twice).
    public init(path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent) throws {
        let opened = try RecordLog.open(path: path, fileSystem: fileSystem, logger: logger)
        log = opened.log
        replayed = opened.records
        report = opened.report
    }

    /// The records found at open (handed out once: the owner keeps them in memory from then on).
    public func loadRecords() throws -> [Data] {
        lock.withLock {
            defer { replayed = nil }
            return replayed ?? []
        }
    }

    /// Appends `records` as one synced batch.
    public func append(_ records: [Data]) throws { try log.append(contentsOf: records) }

    /// Rewrites the log as `records` alone, by atomic rename.
    public func compact(keeping records: [Data]) throws { try log.compact(keeping: records) }

    /// How many bytes the log file holds.
    public var byteCount: Int { log.byteCount }

    /// Closes the file.
    public func close() { log.close() }
}
