import CourierDomain
import Foundation

extension FileOutboxStore {
    // MARK: - Decoding the log

    /// The log's record bodies, decoded one at a time as the replay asks for them, each read in place from the
    /// log file's bytes: no record outlives its turn and none is copied out first, so opening a large outbox never
    /// holds every decoded record at once (a few hundred bytes each, 10,000 of them) nor allocates one buffer per
    /// record. Unreadable ones (intact on disk, yet malformed) are logged, skipped and counted. A record of a newer
    /// layout ends the sequence and is kept in `incompatible`: skipping it would lose data on compaction.
    final class RecordDecoder: Sequence, IteratorProtocol {
        private let contents: Data
        private let bodies: [Range<Int>]
        private let logger: Logger
        private var position = 0
        /// Bodies skipped as unreadable so far.
        private(set) var undecodable = 0
        /// Set when a record of a newer layout stopped the decoding; the open must then fail.
        private(set) var incompatible: StoreError?

        /// Decodes the bodies at `bodies`, offsets from the first byte of `contents`.
        init(_ contents: Data, bodies: [Range<Int>], logger: Logger) {
            self.contents = contents
            self.bodies = bodies
            self.logger = logger
        }

        var underestimatedCount: Int { bodies.count - position }

        func next() -> OutboxRecord? {
            while incompatible == nil, position < bodies.count {
                let body = bodies[position]
                position += 1
                do {
                    return try contents.withUnsafeBytes { bytes in
                        try OutboxRecord(body: UnsafeRawBufferPointer(rebasing: bytes[body]))
                    }
                } catch let newer as RecordNewerVersion {
                    incompatible = StoreError.incompatible(
                        "outbox record version \(newer.version); this build reads up to \(OutboxRecord.currentVersion)")
                } catch {
                    undecodable += 1
                    logger.log(.warning, "outbox: skipped an unreadable record: \(error)")
                }
            }
            return nil
        }
    }
}
