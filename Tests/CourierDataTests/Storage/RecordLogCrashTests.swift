import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// What a user would lose at a crash: the torn-tail repair on its own (no append afterwards to hide a stray byte),
/// and compaction under power cuts at every step, on a disk that may keep or lose an un-synced rename.
@Suite("RecordLog: repairs and compaction under power cuts", .removesTemporaryDirectories)
struct RecordLogCrashTests {
    // MARK: - Torn tail

    @Test("a torn tail is cut exactly at the end of the last intact record, with no append to cover a slip")
    func tornTailCutExactly() throws {
        // Given a log of three records, and the file's bytes with and without the last one
        let directory = try TemporaryDirectory()
        let path = directory.path("torn.log")
        let records = Data.storagePayloads(3)
        let (lastStart, end) = try storageLog(of: records, at: path)
        // The bytes of the log alone, as a log written before space was allocated ahead holds them
        let full = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(end)
        for length in (lastStart + 1)..<full.count {
            // When a crash leaves only `length` bytes and the log is opened and closed without any append
            try full.prefix(length).write(to: URL(fileURLWithPath: path))
            let torn = try RecordLog.open(path: path)
            torn.log.close()
            // Then the file ends exactly where the second record ends
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(size == lastStart, "length \(length)")
            // And the next open finds the two records intact and nothing to repair
            let reopened = try RecordLog.open(path: path)
            #expect(reopened.records == Array(records[..<2]), "length \(length)")
            #expect(reopened.report.isClean, "length \(length)")
            reopened.log.close()
        }
    }

    // MARK: - Failed writes

    @Test("a batch whose write failed half-way never comes back, not even its first, whole record")
    func failedBatchLeavesNoRecord() throws {
        // Given a log holding one record, on a disk that fills up half-way through the next write
        let directory = try TemporaryDirectory()
        let path = directory.path("full.log")
        let fileSystem = StorageCountingFileSystem()
        let (log, _, _) = try RecordLog.open(path: path, fileSystem: fileSystem)
        try log.append(Data.storageText("kept"))
        fileSystem.failWrites(true)
        // When a batch of a short record and a long one is refused (the short one's frame landed whole)
        let refused = [Data.storageText("refused"), Data.storageText(String(repeating: "long ", count: 40))]
        #expect(throws: StoreError.self) { try log.append(contentsOf: refused) }
        fileSystem.failWrites(false)
        log.close()
        // Then after a reopen without any further append only the acknowledged record is there
        let reopened = try RecordLog.open(path: path)
        #expect(reopened.records == [Data.storageText("kept")])
        #expect(reopened.report.isClean)
    }

    // MARK: - Compaction and power cuts

    /// A log at `/d/log` on `fs` holding `records`, durable.
    private func durableLog(on fs: SimulatedFileSystem, records: [Data]) throws -> RecordLog {
        try fs.createDirectory("/d")
        let (log, _, _) = try RecordLog.open(path: "/d/log", fileSystem: fs)
        try log.append(contentsOf: records)
        return log
    }

    @Test("a power cut at any step of a compaction leaves the old records or the compacted ones, whatever the seed")
    func compactionSurvivesEveryPowerCut() throws {
        let records = Data.storagePayloads(12)
        let kept = Array(records[6...])
        for seed in UInt64(0)..<48 {
            for cut in 0..<7 {
                // Given a durable log, on a disk that may keep or lose un-synced renames and writes
                let fs = SimulatedFileSystem(tornWrites: LockedRandom(seed: seed))
                let log = try durableLog(on: fs, records: records)
                // When the power goes `cut` operations into a compaction, and the disk comes back
                fs.cutPower(afterOperations: cut)
                try? log.compact(keeping: kept)
                fs.crash()
                // Then the log holds every old record or exactly the compacted ones, and opens without damage
                let reopened = try RecordLog.open(path: "/d/log", fileSystem: fs)
                #expect(reopened.records == records || reopened.records == kept, "seed \(seed), cut \(cut)")
                #expect(reopened.report.corruptRecords == 0, "seed \(seed), cut \(cut)")
            }
        }
    }

    @Test("a record appended after a compaction survives a power cut")
    func appendAfterCompactionIsDurable() throws {
        // Given a compacted log
        let fs = SimulatedFileSystem()
        let records = Data.storagePayloads(4)
        let log = try durableLog(on: fs, records: records)
        try log.compact(keeping: Array(records[2...]))
        // When a record is appended and the power is cut
        try log.append(Data.storageText("after compaction"))
        fs.crash()
        // Then the compacted records and the new one are all there
        let reopened = try RecordLog.open(path: "/d/log", fileSystem: fs)
        #expect(reopened.records == Array(records[2...]) + [Data.storageText("after compaction")])
    }
}
