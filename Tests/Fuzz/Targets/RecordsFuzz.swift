import CourierDomain
import Foundation

// Fuzz target `records`: the record log's reader and every record decoder (docs/storage-format.md), on what a
// damaged disk or another build could leave.
//
// The first byte picks the mode: the rest is a whole log file opened by `RecordLog` (0), one record body for one
// decoder (1–5), or record bodies separated by `SEPARATOR`, framed with correct checksums so that they pass the log
// and reach every store that replays them at open (6).
@testable import CourierData
@testable import CourierFakes
@testable import CourierServer
@testable import CourierStore

private let separator = Array("\n~~\n".utf8)

/// Each decoder, checking that what it read writes back to bytes that read back the same.
private let decoders: [@Sendable (Data) -> Void] = [
    { body in
        guard let record = try? OutboxRecord(body: body) else { return }
        roundTrip("outbox", record.encoded()) { try OutboxRecord(body: $0).encoded() }
    },
    { body in
        guard let record = try? MessageCacheRecord.decode(body) else { return }
        roundTrip("message cache", record.encoded()) { try MessageCacheRecord.decode($0).encoded() }
    },
    { body in
        guard let record = try? ConversationCacheRecord.decode(body) else { return }
        roundTrip("conversation cache", record.encoded()) { try ConversationCacheRecord.decode($0).encoded() }
    },
    { body in
        guard let record = try? WriteQueueRecord.decode(body) else { return }
        roundTrip("write queue", record.encoded()) { try WriteQueueRecord.decode($0).encoded() }
    },
    { body in
        guard let event = try? BackendEvent(recordBody: body) else { return }
        roundTrip("backend event", event.recordBody()) { try BackendEvent(recordBody: $0).recordBody() }
    },
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let mode = Int(input.byte()) % (decoders.count + 2)
    let rest = input.rest
    MainActor.assumeIsolated {
        switch mode {
        case 0: openLog(Data(rest))
        case decoders.count + 1: openStores(bodies(in: rest))
        default:
            decoders[mode - 1](Data(rest))
            if mode == 1 { _ = FileOutboxStore.replay(Data(rest), bodies: [0..<rest.count], logger: .silent) }
        }
    }
    return 0
}

/// What a decoder wrote must read back and write the same bytes again.
private func roundTrip(_ name: String, _ written: Data, _ rewrite: (Data) throws -> Data) {
    do {
        require(try rewrite(written) == written, "a \(name) record reads back differently")
    } catch {
        require(false, "a \(name) record that was read cannot be read once written: \(error)")
    }
}

/// `bytes` cut at each separator.
private func bodies(in bytes: [UInt8]) -> [Data] {
    var result: [Data] = []
    var start = 0
    var index = 0
    while index + separator.count <= bytes.count {
        if bytes[index..<(index + separator.count)].elementsEqual(separator) {
            result.append(Data(bytes[start..<index]))
            index += separator.count
            start = index
        } else {
            index += 1
        }
    }
    result.append(Data(bytes[start...]))
    return result
}

/// A simulated disk holding `contents` at `path`.
private func disk(with contents: Data, at path: String) -> SimulatedFileSystem {
    let fileSystem = SimulatedFileSystem()
    do {
        let handle = try fileSystem.open(path, create: true)
        try fileSystem.write(contents, at: 0, to: handle)
        try fileSystem.sync(handle)
        fileSystem.close(handle)
    } catch {
        fatalError("the simulated disk refused a write: \(error)")
    }
    return fileSystem
}

/// Opens `contents` as a record log; whatever it recovers goes to every decoder.
private func openLog(_ contents: Data) {
    let fileSystem = disk(with: contents, at: "/log")
    guard let (log, records, report) = try? RecordLog.open(path: "/log", fileSystem: fileSystem) else { return }
    log.close()
    require(report.recoveredRecords == records.count, "\(report) for \(records.count) records")
    let kept = fileSystem.contents(of: "/log") ?? Data()
    require(kept.count <= max(contents.count, RecordFrame.fileHeaderSize), "the log grew from \(contents.count) bytes")
    // What was recovered opens again as it is: nothing more to cut, the same damage skipped (a corrupt record stays
    // until a compaction drops it).
    if let (again, second, secondReport) = try? RecordLog.open(path: "/log", fileSystem: fileSystem) {
        again.close()
        require(second == records, "a reopened log holds other records")
        require(
            secondReport.truncatedBytes == 0 && secondReport.corruptRecords == report.corruptRecords,
            "a repaired log (\(report)) needs repairing again: \(secondReport)")
    } else {
        require(false, "a repaired log does not open")
    }
    for record in records {
        for decode in decoders { decode(record) }
    }
}

/// Frames `bodies` into a log file (checksums right) and opens every store that replays such a file.
@MainActor
private func openStores(_ bodies: [Data]) {
    var file = RecordFrame.fileHeader
    for body in bodies { RecordFrame.append(body, to: &file) }
    var contents = Data()
    var ranges: [Range<Int>] = []
    for body in bodies {
        ranges.append(contents.count..<(contents.count + body.count))
        contents.append(body)
    }
    _ = FileOutboxStore.replay(contents, bodies: ranges, logger: .silent)
    _ = try? MessageCache(storage: InMemoryRecordStorage(records: bodies))
    _ = try? ConversationCache(storage: InMemoryRecordStorage(records: bodies))
    _ = try? WriteQueueJournal(storage: InMemoryRecordStorage(records: bodies), logger: .silent)
    _ = try? SyncCursorLog(storage: InMemoryRecordStorage(records: bodies), logger: .silent)
    let backendDisk = disk(with: file, at: "/backend.log")
    if let journal = try? RecordLogBackendJournal(path: "/backend.log", fileSystem: backendDisk) {
        _ = try? journal.load()
        journal.close()
    }
    _ = try? SignInAuthority(
        path: "/sessions.log", fileSystem: disk(with: file, at: "/sessions.log"), clock: ManualClock(),
        tokenLifetime: .seconds(60)
    ) { _, _ in false }
}
