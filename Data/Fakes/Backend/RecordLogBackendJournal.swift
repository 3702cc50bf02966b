import CourierData
import CourierDomain
import Foundation

/// The simulated backend's journal on a checksummed record log: one JSON-encoded `BackendEvent` per record, synced
/// before the backend answers, so an acknowledged write survives a kill of the driver.
public final class RecordLogBackendJournal: BackendJournal {
    private let storage: RecordLogStorage
    private let encoder = JSONEncoder()
    private let logger: Logger

    /// What opening the file found.
    public var report: RecoveryReport { storage.report }

    /// Opens (or creates) the journal at `path`.
    public init(path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent) throws {
        storage = try RecordLogStorage(path: path, fileSystem: fileSystem, logger: logger)
        self.logger = logger
        encoder.dateEncodingStrategy = .millisecondsSince1970
    }

    public func load() throws -> [BackendEvent] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try storage.loadRecords().compactMap { record in
            do {
                return try decoder.decode(BackendEvent.self, from: record)
            } catch {
                logger.log(.warning, "backend journal: skipped an unreadable event (\(error))")
                return nil
            }
        }
    }

    public func append(_ events: [BackendEvent]) throws {
        let records = try events.map { event in
            do { return try encoder.encode(event) } catch { throw StoreError.io("cannot encode event: \(error)") }
        }
        try storage.append(records)
    }

    /// Closes the file.
    public func close() { storage.close() }
}
