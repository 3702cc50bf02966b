import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@Suite("RecordLog", .removesTemporaryDirectories)
struct RecordLogTests {
    private let directory: TemporaryDirectory
    private var path: String { directory.path("test.log") }

    init() throws { directory = try TemporaryDirectory() }

    /// Whether the file holds `count` bytes of log followed by nothing but zero-filled space written ahead.
    private func zeroTail(after count: Int) throws -> Bool {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return bytes.count >= count && bytes[count...].allSatisfy { $0 == 0 }
    }

    // MARK: - Appending and replay

    @Test("records appended one by one and in batches come back in append order after a reopen")
    func appendAndReopen() throws {
        // Given a new log
        let (log, initial, report) = try RecordLog.open(path: path)
        #expect(initial.isEmpty)
        #expect(report.isClean)
        // When records are appended singly and as a batch, then the log is reopened
        let records = Data.storagePayloads(5)
        try log.append(records[0])
        try log.append(contentsOf: Array(records[1...]))
        #expect(log.recordCount == 5)
        log.close()
        let reopened = try RecordLog.open(path: path)
        // Then every record is there, in order, and nothing needed repair
        #expect(reopened.records == records)
        #expect(reopened.report == RecoveryReport(recoveredRecords: 5))
        #expect(try zeroTail(after: reopened.log.byteCount))
    }

    @Test("a payload past the limit is refused and nothing is written")
    func recordTooLarge() throws {
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(Data.storageText("kept"))
        let before = log.byteCount
        let huge = Data(count: RecordLog.maxRecordBytes + 1)
        #expect(throws: StoreError.recordTooLarge(bytes: huge.count, limit: RecordLog.maxRecordBytes)) {
            try log.append(contentsOf: [Data.storageText("not kept"), huge])
        }
        #expect(log.byteCount == before)
        log.close()
        #expect(try RecordLog.open(path: path).records == [Data.storageText("kept")])
    }

    @Test("a file that is not a record log is refused and left alone")
    func notALog() throws {
        try Data("{\"queue\":[]}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try RecordLog.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("{\"queue\":[]}".utf8))
    }

    @Test("after a failed write the log holds nothing of it and stays usable")
    func failedWriteLeavesNothing() throws {
        let fileSystem = StorageCountingFileSystem()
        let (log, _, _) = try RecordLog.open(path: path, fileSystem: fileSystem)
        try log.append(Data.storageText("first"))
        fileSystem.failWrites(true)
        #expect(throws: StoreError.self) { try log.append(Data.storageText("refused")) }
        fileSystem.failWrites(false)
        try log.append(Data.storageText("second"))
        log.close()
        let reopened = try RecordLog.open(path: path)
        #expect(reopened.records == [Data.storageText("first"), Data.storageText("second")])
        #expect(reopened.report.isClean)
    }

    @Test("after a failed sync the log refuses writes until it is reopened")
    func failedSyncPoisons() throws {
        let fileSystem = StorageCountingFileSystem()
        let (log, _, _) = try RecordLog.open(path: path, fileSystem: fileSystem)
        try log.append(Data.storageText("first"))
        fileSystem.failSyncs(true)
        #expect(throws: StoreError.self) { try log.append(Data.storageText("unsure")) }
        fileSystem.failSyncs(false)
        #expect(throws: StoreError.self) { try log.append(Data.storageText("refused")) }
        log.close()
        let reopened = try RecordLog.open(path: path)
        #expect(reopened.records.first == Data.storageText("first"))
        #expect(!reopened.records.contains(Data.storageText("refused")))
        try reopened.log.append(Data.storageText("after reopen"))
    }

    // MARK: - Recovery

    @Test("a torn tail at every byte offset of the last record is truncated; earlier records stay; appends go on")
    func tornTailAtEveryOffset() throws {
        // Given a log of three records, and the file's bytes with and without the last one
        let records = Data.storagePayloads(3)
        let (lastStart, end) = try storageLog(of: records, at: path)
        // The bytes of the log alone, as a log written before space was allocated ahead holds them
        let full = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(end)
        for length in lastStart..<full.count {
            // When a crash leaves only `length` bytes
            try full.prefix(length).write(to: URL(fileURLWithPath: path))
            let torn = try RecordLog.open(path: path)
            // Then the first two records are intact, the torn bytes are reported and cut
            #expect(torn.records == Array(records[..<2]), "length \(length)")
            #expect(torn.report.truncatedBytes == length - lastStart)
            #expect(torn.report.corruptRecords == 0)
            // And the log takes new records after them
            try torn.log.append(Data.storageText("after the crash"))
            torn.log.close()
            let reopened = try RecordLog.open(path: path)
            #expect(reopened.records == Array(records[..<2]) + [Data.storageText("after the crash")])
            #expect(reopened.report.isClean)
            reopened.log.close()
        }
    }

    @Test("a file cut inside its header is started again")
    func tornHeader() throws {
        let (log, _, _) = try RecordLog.open(path: path)
        log.close()
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(3)).write(to: URL(fileURLWithPath: path))
        let reopened = try RecordLog.open(path: path)
        #expect(reopened.records.isEmpty)
        try reopened.log.append(Data.storageText("fresh"))
    }

    @Test(
        "a damaged record mid-file is reported and skipped; the others are kept",
        arguments: [0, 2, 5, 9, 12, 13, 20])
    func damagedRecordMidFile(byteInFrame: Int) throws {
        // Given five records
        let records = Data.storagePayloads(5)
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(contentsOf: Array(records[..<2]))
        let damagedStart = log.byteCount
        try log.append(contentsOf: Array(records[2...]))
        log.close()
        // When one byte of the third record's frame (marker, CRC, length, version or body) flips
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[damagedStart + byteInFrame] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        // Then the third is skipped, counted and reported to the app's logger; the four others come back in order
        let reports = RecordingLogger()
        let reopened = try RecordLog.open(path: path, logger: reports.logger)
        #expect(reopened.records == [records[0], records[1], records[3], records[4]])
        #expect(reopened.report.corruptRecords == 1)
        #expect(reopened.report.truncatedBytes == 0)
        #expect(reopened.report.description.contains("1 corrupt record skipped"))
        #expect(reports.lines == ["warning: \(path): \(reopened.report)"])
    }

    // MARK: - Compaction

    @Test("compaction keeps exactly the live records, survives a reopen and leaves no temporary file")
    func compaction() throws {
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(contentsOf: Data.storagePayloads(50, prefix: "dead"))
        let live = Data.storagePayloads(3, prefix: "live")
        try log.compact(keeping: live)
        #expect(log.recordCount == 3)
        try log.append(Data.storageText("after compaction"))
        #expect(try zeroTail(after: log.byteCount))
        log.close()
        let reopened = try RecordLog.open(path: path)
        #expect(reopened.records == live + [Data.storageText("after compaction")])
        #expect(reopened.report.isClean)
        #expect(try PosixFileSystem().list(directory.url.path) == ["test.log"])
    }

    @Test("a compaction cut short before its rename leaves the old log whole")
    func interruptedCompaction() throws {
        let records = Data.storagePayloads(4)
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(contentsOf: records)
        log.close()
        try Data("half a compacted file".utf8).write(to: URL(fileURLWithPath: path + ".compact"))
        let reopened = try RecordLog.open(path: path)
        #expect(reopened.records == records)
        #expect(!FileManager.default.fileExists(atPath: path + ".compact"))
    }

    // MARK: - Group commit

    @Test("8 threads × 200 appends: every record is durable and they shared syncs")
    func groupCommit() throws {
        // Given a log on a file system that counts syncs
        let fileSystem = StorageCountingFileSystem()
        let (log, _, _) = try RecordLog.open(path: path, fileSystem: fileSystem)
        let syncsBefore = fileSystem.syncs
        let failures = StorageFailureCount()
        // When 8 threads append 200 records each at the same time
        storageRunOnThreads(8) { thread in
            for index in 0..<200 {
                do { try log.append(Data.storageText("thread \(thread) record \(index)")) } catch { failures.add() }
            }
        }
        let syncs = fileSystem.syncs - syncsBefore
        log.close()
        // Then all 1,600 are there after a reopen, each thread's in its own order, with fewer syncs than appends
        #expect(failures.value == 0)
        let records = try RecordLog.open(path: path).records.map { String(decoding: $0, as: UTF8.self) }
        #expect(records.count == 1_600)
        for thread in 0..<8 {
            let own = records.filter { $0.hasPrefix("thread \(thread) ") }
            #expect(own == (0..<200).map { "thread \(thread) record \($0)" })
        }
        #expect(syncs < 1_600)
    }
}
