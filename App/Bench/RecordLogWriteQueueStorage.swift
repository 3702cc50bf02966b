import CourierData
import Foundation

/// The write queue's storage seam over the checksummed `RecordLog`, as `WriteQueueStorage`'s doc comment sketches
/// it. The Data layer ships only the in-memory storage so far, so the bench brings this adapter to measure the
/// queue on a real, synced file.
final class RecordLogWriteQueueStorage: WriteQueueStorage {
    private let log: RecordLog
    private let opened: [Data]

    /// Opens (creating when absent) the log at `path`.
    init(path: String) throws {
        let result = try RecordLog.open(path: path)
        log = result.log
        opened = result.records
    }

    /// How many bytes the log holds.
    var byteCount: Int { log.byteCount }

    func loadRecords() throws -> [Data] { opened }

    func append(_ records: [Data]) throws { try log.append(contentsOf: records) }

    func compact(keeping records: [Data]) throws { try log.compact(keeping: records) }

    /// Closes the file.
    func close() { log.close() }
}
