import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// The log's file grows ahead of its records in zero-filled steps; a zero word where a frame would start ends it.
@Suite("RecordLog: space written ahead", .removesTemporaryDirectories)
struct RecordLogAllocationTests {
    private let directory: TemporaryDirectory
    private var path: String { directory.path("ahead.log") }

    init() throws { directory = try TemporaryDirectory() }

    private func fileBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("appends land in zero-filled space; a reopen finds every record and the same size, and reports nothing")
    func reopenAfterAppendsAhead() throws {
        // Given a log with 3,000 records appended one by one and in batches (past the first steps of growth)
        let (log, _, _) = try RecordLog.open(path: path)
        let records = Data.storagePayloads(3_000)
        for record in records[..<1_000] { try log.append(record) }
        try log.append(contentsOf: Array(records[1_000...]))
        let bytes = log.byteCount
        log.close()
        // Then the file is longer than the log, and what follows the log is zeros
        let file = try fileBytes()
        #expect(file.count > bytes)
        #expect(file[bytes...].allSatisfy { $0 == 0 })
        #expect(file.count.isMultiple(of: 4_096))
        // When it is reopened
        let reopened = try RecordLog.open(path: path)
        // Then every record is back, the log has the same size, and nothing needed repair or was cut
        #expect(reopened.records == records)
        #expect(reopened.log.byteCount == bytes)
        #expect(reopened.report == RecoveryReport(recoveredRecords: 3_000))
        #expect(try fileBytes().count == file.count)
        // And appends go on where the records end
        try reopened.log.append(Data.storageText("after reopen"))
        reopened.log.close()
        let again = try RecordLog.open(path: path)
        #expect(again.records == records + [Data.storageText("after reopen")])
        #expect(again.report.isClean)
    }

    @Test("the file grows by as much as the log holds, at least 64 KiB and at most 1 MiB, to whole pages")
    func growthSteps() {
        for needed in [21, 4_096, 65_536, 300_000, 1_048_576, 5_000_000] {
            let step = RecordLog.allocationStep(after: needed)
            #expect((needed + step).isMultiple(of: 4_096), "needed \(needed)")
            #expect(step >= min(max(needed, 65_536), 1 << 20), "needed \(needed)")
            #expect(step < min(max(needed, 65_536), 1 << 20) + 4_096, "needed \(needed)")
        }
    }

    @Test("a power cut after durable appends leaves a zero tail that opens clean, whatever the disk kept")
    func crashLeavesZeroTail() throws {
        for seed in UInt64(0)..<24 {
            // Given durable records on a disk that keeps a random part of unsynced writes at a crash
            let fs = SimulatedFileSystem(tornWrites: LockedRandom(seed: seed))
            try fs.createDirectory("/d")
            let (log, _, _) = try RecordLog.open(path: "/d/log", fileSystem: fs)
            let records = Data.storagePayloads(20)
            for record in records { try log.append(record) }
            // When the power goes while a last append is written but not synced
            fs.cutPower(afterOperations: 1)
            #expect(throws: StoreError.self) { try log.append(Data.storageText("never acknowledged")) }
            fs.crash()
            // Then the acknowledged records are there, and zeros after them are no damage
            let reopened = try RecordLog.open(path: "/d/log", fileSystem: fs)
            #expect(Array(reopened.records.prefix(20)) == records, "seed \(seed)")
            #expect(reopened.records.count <= 21, "seed \(seed)")
            #expect(reopened.report.corruptRecords == 0, "seed \(seed)")
            // (a torn last append is cut with the space after it; otherwise the space ahead stays, all zeros)
            let file = fs.contents(of: "/d/log") ?? Data()
            if reopened.report.truncatedBytes == 0 {
                #expect(file.count > reopened.log.byteCount, "seed \(seed)")
                #expect(file[reopened.log.byteCount...].allSatisfy { $0 == 0 }, "seed \(seed)")
            } else {
                #expect(file.count == reopened.log.byteCount, "seed \(seed)")
            }
            reopened.log.close()
        }
    }

    @Test("a record torn at any byte inside the space ahead is cut with that space, and appends go on")
    func tornInsideSpaceAhead() throws {
        // Given a log of three records, the last one's frame, and the file with that frame zeroed out again
        let records = Data.storagePayloads(3)
        let (lastStart, lastEnd) = try storageLog(of: records, at: path)
        let full = try fileBytes()
        for length in 1..<(lastEnd - lastStart) {
            // When a crash left only `length` bytes of the last frame in the zero-filled space
            var torn = full
            torn.replaceSubrange((lastStart + length)..<lastEnd, with: Data(count: lastEnd - lastStart - length))
            try torn.write(to: URL(fileURLWithPath: path))
            let reopened = try RecordLog.open(path: path)
            // Then the first two records are intact, and everything after them is reported cut
            #expect(reopened.records == Array(records[..<2]), "length \(length)")
            #expect(reopened.report.corruptRecords == 0, "length \(length)")
            #expect(reopened.report.truncatedBytes == full.count - lastStart, "length \(length)")
            // And the log takes new records after them, and opens clean
            try reopened.log.append(Data.storageText("after the crash"))
            reopened.log.close()
            let again = try RecordLog.open(path: path)
            #expect(again.records == Array(records[..<2]) + [Data.storageText("after the crash")], "length \(length)")
            #expect(again.report.isClean, "length \(length)")
            again.log.close()
        }
    }

    @Test("a zeroed record followed by an intact one is damage: skipped and counted, not the end of the log")
    func zeroedRecordMidLog() throws {
        // Given three records, the second's frame overwritten by zeros
        let records = Data.storagePayloads(3)
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(records[0])
        let start = log.byteCount
        try log.append(records[1])
        let end = log.byteCount
        try log.append(records[2])
        log.close()
        var bytes = try fileBytes()
        bytes.replaceSubrange(start..<end, with: Data(count: end - start))
        try bytes.write(to: URL(fileURLWithPath: path))
        // When it is reopened
        let reopened = try RecordLog.open(path: path)
        // Then the third record is kept and the second reported
        #expect(reopened.records == [records[0], records[2]])
        #expect(reopened.report.corruptRecords == 1)
        #expect(reopened.report.truncatedBytes == 0)
    }
}
