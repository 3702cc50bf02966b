import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

@Suite("FileOutboxStore recovery", .removesTemporaryDirectories)
struct FileOutboxStoreRecoveryTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    // MARK: - Compaction and recovery

    @Test("when dead records dominate, the log is compacted to the live messages and still replays")
    func automaticCompaction() throws {
        // Given ten messages whose status changes 1,500 times
        let store = try open()
        for index in 0..<10 { try store.enqueue(message("m\(index)", at: Double(index))) }
        for round in 0..<150 {
            for index in 0..<10 {
                let status: MessageStatus = round.isMultiple(of: 2) ? .failed : .sending
                try store.updateStatus(
                    of: MessageID("m\(index)"), to: status, at: start, attempts: round, lastError: .offline)
            }
        }
        try store.remove(MessageID("m0"))
        let expected = store.all()
        store.close()
        // Then the file holds no more records than the compaction rule allows
        let raw = try RecordLog.open(path: directory.path(FileOutboxStore.fileName))
        #expect(raw.records.count <= 2 * 9 + 1_001)
        raw.log.close()
        // And the outbox reads back exactly as it was (sends cut off go back to the queue)
        let reopened = try open()
        #expect(reopened.all().map(\.id) == expected.map(\.id))
        #expect(reopened.all().map(\.attempts) == expected.map(\.attempts))
        #expect(reopened.recovery.isClean)
    }

    @Test("a damaged record is reported and skipped; the other messages are kept")
    func damagedRecord() throws {
        let store = try open()
        try store.enqueue(message("a"))
        let damagedStart = logSize
        try store.enqueue(message("b", at: 1))
        try store.enqueue(message("c", at: 2))
        store.close()
        let url = URL(fileURLWithPath: directory.path(FileOutboxStore.fileName))
        var bytes = try Data(contentsOf: url)
        bytes[damagedStart + 30] ^= 0x01
        try bytes.write(to: url)
        let reopened = try open()
        #expect(reopened.all().map(\.id.rawValue) == ["a", "c"])
        #expect(reopened.recovery.corruptRecords == 1)
    }

    @Test("a torn last record loses only that unacknowledged message")
    func tornTail() throws {
        let store = try open()
        try store.enqueue(message("a"))
        try store.enqueue(message("b", at: 1))
        store.close()
        let url = URL(fileURLWithPath: directory.path(FileOutboxStore.fileName))
        try Data(try Data(contentsOf: url).withoutZeroTail.dropLast(7)).write(to: url)
        let reopened = try open()
        #expect(reopened.all().map(\.id.rawValue) == ["a"])
        #expect(reopened.recovery.truncatedBytes > 0)
        try reopened.enqueue(message("b", at: 1))
        #expect(try reopen(reopened).count == 2)
    }

    @Test("a log written by a newer format is refused, not skipped")
    func newerRecordVersion() throws {
        let path = directory.path(FileOutboxStore.fileName)
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(Data([OutboxRecord.currentVersion + 1, 1]))  // a newer record layout, a put
        log.close()
        #expect(throws: StoreError.self) { try open() }
    }

    @Test("an intact but unreadable record is counted as corrupt and skipped")
    func unreadableRecord() throws {
        let store = try open()
        try store.enqueue(message("a"))
        store.close()
        let (log, _, _) = try RecordLog.open(path: directory.path(FileOutboxStore.fileName))
        try log.append(Data([1, 99]))  // version 1, a kind no build writes
        log.close()
        let reopened = try open()
        #expect(reopened.all().map(\.id.rawValue) == ["a"])
        #expect(reopened.recovery.corruptRecords == 1)
    }

    @Test(
        "a put that cannot be read whole is counted as corrupt and skipped; the records around it still apply",
        arguments: ["cut short", "with bytes after it", "with an unknown status"])
    func unreadablePut(_ damage: String) throws {
        // Given a log whose middle put is intact on disk but not a readable message, between two good ones and
        // followed by a status change of the first
        let path = directory.path(FileOutboxStore.fileName)
        let (log, _, _) = try RecordLog.open(path: path)
        try log.append(OutboxRecord.put(message("a")).encoded())
        let put = OutboxRecord.put(message("b", at: 1)).encoded()
        switch damage {
        case "cut short": try log.append(put.dropLast(3))
        case "with bytes after it": try log.append(put + [0])
        default: try log.append(Self.settingStatus(of: put, to: 77))
        }
        try log.append(OutboxRecord.put(message("c", at: 2)).encoded())
        var failed = message("a", status: .failed)
        failed.attempts = 2
        try log.append(OutboxRecord.statusChange(of: failed).encoded())
        log.close()
        // When the outbox opens
        let reopened = try open()
        // Then the damaged put alone is gone, counted, and the others read as written
        #expect(reopened.all().map(\.id.rawValue) == ["a", "c"], "\(damage)")
        #expect(reopened.message(MessageID("a"))?.status == .failed)
        #expect(reopened.message(MessageID("a"))?.attempts == 2)
        #expect(reopened.message(MessageID("c")) == message("c", at: 2))
        #expect(reopened.recovery.corruptRecords == 1)
    }

    /// `body`, a put, with its status byte set to `code`: the status follows the id, conversation, sender and text
    /// (each a u32 length and its bytes) and the timestamp (docs/storage-format.md).
    private static func settingStatus(of body: Data, to code: UInt8) -> Data {
        var bytes = [UInt8](body)
        var offset = 2
        for _ in 0..<4 {
            let length =
                Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
                | Int(bytes[offset + 3]) << 24
            offset += 4 + length
        }
        bytes[offset + 8] = code
        return Data(bytes)
    }

    @Test(
        "every status and every delivery error survives a reopen",
        arguments: zip(
            MessageStatus.allCases,
            [
                DeliveryError.offline, .timeout, .server(code: 502), .unauthorized, .forbidden,
                .validation(reason: "too long"),
            ]))
    func statusesAndErrorsRoundTrip(status: MessageStatus, error: DeliveryError) throws {
        let store = try open()
        var stored = message("a", status: status)
        stored.lastError = error
        try store.enqueue(stored)
        try store.enqueue(message("b", at: 1, status: .failed))
        try store.updateStatus(of: MessageID("b"), to: .failed, at: start, attempts: 1, lastError: .notFound)
        try store.updateStatus(of: MessageID("b"), to: .failed, at: start, attempts: 2, lastError: .unknown("odd"))
        let reopened = try reopen(store)
        let expected = status == .sending ? .queued : status
        #expect(reopened.message(MessageID("a"))?.status == expected)
        // A send cut off is queued again `unanswered`: the backend may hold it.
        #expect(reopened.message(MessageID("a"))?.lastError == (status == .sending ? .unanswered : error))
        #expect(reopened.message(MessageID("a"))?.outcomeUnknown == (status == .sending || error.mayHaveBeenApplied))
        #expect(reopened.message(MessageID("b"))?.lastError == .unknown("odd"))
    }

    @Test("concurrent enqueues from several threads all land")
    func concurrentEnqueues() throws {
        let store = try open()
        storageRunOnThreads(4) { thread in
            for index in 0..<25 {
                try? store.enqueue(
                    Message(
                        id: MessageID("t\(thread)-\(index)"), conversationID: "c1", senderID: "me", text: "hi",
                        timestamp: Date(timeIntervalSinceReferenceDate: Double(index)), status: .queued))
            }
        }
        #expect(store.count == 100)
        #expect(try reopen(store).count == 100)
    }
}
