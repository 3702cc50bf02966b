import CourierData
import CourierDomain
import Foundation

/// The simulated backend's journal on a checksummed record log: one `BackendEvent` per record, in the binary layout
/// of every store (docs/storage-format.md §4), synced before the backend answers, so an acknowledged write survives
/// a kill of the driver.
public final class RecordLogBackendJournal: BackendJournal {
    private let storage: RecordLogStorage
    private let logger: Logger

    /// What opening the file found.
    public var report: RecoveryReport { storage.report }

    /// Opens (or creates) the journal at `path`.
    public init(path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent) throws {
        storage = try RecordLogStorage(path: path, fileSystem: fileSystem, logger: logger)
        self.logger = logger
    }

    /// Every event in the log, oldest first; a record that cannot be read is skipped and logged.
    public func load() throws -> [BackendEvent] {
        try storage.loadRecords().compactMap { record in
            do {
                return try BackendEvent(recordBody: record)
            } catch {
                logger.log(.warning, "backend journal: skipped an unreadable event (\(error))")
                return nil
            }
        }
    }

    /// Appends `events` as one synced batch.
    public func append(_ events: [BackendEvent]) throws { try storage.append(events.map { $0.recordBody() }) }

    /// Closes the file.
    public func close() { storage.close() }
}
