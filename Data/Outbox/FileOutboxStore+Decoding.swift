import CourierDomain
import Foundation

extension FileOutboxStore {
    // MARK: - Decoding the log

    /// Decodes every record body; unreadable ones (intact on disk, yet malformed) are logged, skipped and counted.
    /// A record of a newer layout throws `StoreError.incompatible`: skipping it would lose data on compaction.
    static func decode(_ bodies: [Data], logger: Logger) throws -> (records: [OutboxRecord], undecodable: Int) {
        var records: [OutboxRecord] = []
        records.reserveCapacity(bodies.count)
        var undecodable = 0
        for body in bodies {
            do {
                records.append(try OutboxRecord(body: body))
            } catch let newer as RecordNewerVersion {
                throw StoreError.incompatible(
                    "outbox record version \(newer.version); this build reads up to \(OutboxRecord.currentVersion)")
            } catch {
                undecodable += 1
                logger.log(.warning, "outbox: skipped an unreadable record: \(error)")
            }
        }
        return (records, undecodable)
    }
}
