import CourierDomain
import Foundation

/// The simulated backend's journal on a checksummed `RecordLog`: one JSON-encoded `BackendEvent` per record,
/// synced before the backend answers, so an acknowledged write survives a kill of the driver.
public final class RecordLogBackendJournal: BackendJournal {
    private let log: RecordLog
    private var replayed: [Data]
    private let encoder = JSONEncoder()
    private let logger: Logger

    /// What opening the file found.
    public let report: RecoveryReport

    /// Opens (or creates) the journal at `path`.
    public init(path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent) throws {
        let opened = try RecordLog.open(path: path, fileSystem: fileSystem, logger: logger)
        log = opened.log
        replayed = opened.records
        report = opened.report
        self.logger = logger
        encoder.dateEncodingStrategy = .millisecondsSince1970
    }

    public func load() throws -> [BackendEvent] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        defer { replayed = [] }
        return replayed.compactMap { record in
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
        try log.append(contentsOf: records)
    }

    /// Closes the file.
    public func close() { log.close() }
}
