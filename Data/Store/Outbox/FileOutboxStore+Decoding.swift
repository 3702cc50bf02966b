import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FileOutboxStore {
    // MARK: - Decoding the log

    /// The outbox that the record bodies at `bodies` (offsets from the first byte of `contents`, in log order)
    /// describe. Each body is decoded in place as its turn comes, within one pass over the file's bytes: no record
    /// is copied out first and none outlives its turn, so opening a large outbox neither allocates a buffer per
    /// record nor holds every decoded record at once. Unreadable ones (intact on disk, yet malformed) are logged,
    /// skipped and counted in `unusable` with the records the replay ignored. A record of a newer layout stops the
    /// replay and is returned in `incompatible`: skipping it would lose data on compaction, so the open must fail.
    package static func replay(
        _ contents: Data, bodies: [Range<Int>], logger: Logger
    ) -> (index: OutboxIndex, unusable: Int, incompatible: StoreError?) {
        var replay = OutboxReplay(capacity: bodies.count, logger: logger)
        var undecodable = 0
        var incompatible: StoreError?
        contents.withUnsafeBytes { bytes in
            for body in bodies {
                do {
                    try replay.apply(body: UnsafeRawBufferPointer(rebasing: bytes[body]))
                } catch let newer as RecordNewerVersion {
                    incompatible = StoreError.incompatible(
                        "outbox record version \(newer.version); this build reads up to \(OutboxRecord.currentVersion)")
                    return
                } catch {
                    undecodable += 1
                    logger.log(.warning, "outbox: skipped an unreadable record: \(error)")
                }
            }
        }
        return (replay.index, undecodable + replay.ignored, incompatible)
    }
}
