import CourierDomain
import Foundation

extension FileOutboxStore {
    // MARK: - Decoding the log

    /// Decodes every record body. All bodies are decoded as one JSON array — one decoder pass instead of one per
    /// record, which keeps opening a large outbox close to the cost of plain JSON decoding. When that fails (a body
    /// that is intact on disk but unreadable), bodies are decoded one by one and the unreadable ones are counted.
    /// A record of a newer layout throws `StoreError.incompatible`: skipping it would lose data on compaction.
    static func decode(_ bodies: [Data], logger: Logger) throws -> (records: [OutboxRecord], undecodable: Int) {
        guard !bodies.isEmpty else { return ([], 0) }
        let decoder = JSONDecoder()
        var records: [OutboxRecord]
        var undecodable = 0
        if let bulk = try? decoder.decode([OutboxRecord].self, from: joinedAsArray(bodies)), bulk.count == bodies.count {
            records = bulk
        } else {
            records = []
            for body in bodies {
                do {
                    records.append(try decoder.decode(OutboxRecord.self, from: body))
                } catch {
                    undecodable += 1
                    logger.log(.warning, "outbox: skipped an unreadable record: \(error)")
                }
            }
        }
        if let newer = records.first(where: { $0.version > OutboxRecord.currentVersion }) {
            throw StoreError.incompatible(
                "outbox record version \(newer.version); this build reads up to \(OutboxRecord.currentVersion)")
        }
        return (records, undecodable)
    }

    private static func joinedAsArray(_ bodies: [Data]) -> Data {
        var joined = Data(capacity: bodies.reduce(2) { $0 + $1.count + 1 })
        joined.append(UInt8(ascii: "["))
        for (position, body) in bodies.enumerated() {
            if position > 0 { joined.append(UInt8(ascii: ",")) }
            joined.append(body)
        }
        joined.append(UInt8(ascii: "]"))
        return joined
    }
}
