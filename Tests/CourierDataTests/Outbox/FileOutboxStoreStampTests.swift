import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Compose stamps in the outbox log: a message composed here is stamped after its conversation's stamp mark, which
/// outlives the messages that raised it, and logs of earlier builds (version 1, and version 2 with compose sequences)
/// open with their marks taken from their messages.
@Suite("FileOutboxStore compose stamps", .removesTemporaryDirectories)
struct FileOutboxStoreStampTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    @Test("a message composed at an earlier clock reading is stamped after the conversation's newest stamp")
    func composedMessageGoesAfterTheMark() throws {
        // Given c1 holding a message stamped at 5 s, and c2 nothing
        let store = try open()
        try store.enqueue(message("m1", at: 5))

        // When messages are composed at 2 s (the clock went back) in c1, and in c2
        let late = try store.enqueueComposed(message("m2", at: 2))
        var elsewhere = message("m3", at: 2)
        elsewhere.conversationID = "c2"
        let other = try store.enqueueComposed(elsewhere)

        // Then c1's is stamped a millisecond after its newest, stored so, and last in compose order; c2's keeps the
        // clock's reading
        #expect(late.timestamp == start.addingTimeInterval(5.001))
        #expect(store.message("m2")?.timestamp == late.timestamp)
        #expect(store.pending(in: "c1", before: nil, limit: 10).map(\.id) == ["m1", "m2"])
        #expect(other.timestamp == start.addingTimeInterval(2))
        #expect(store.composeMark(in: "c1") == late.timestamp)
    }

    @Test("the stamp mark outlives its messages: not after they are removed and reopened, nor after a compaction")
    func marksSurviveRemovalAndCompaction() throws {
        // Given a message stamped at 5 s in c1 that was delivered (removed)
        let store = try open()
        try store.enqueue(message("m5", at: 5))
        try store.remove("m5")
        #expect(store.composeMark(in: "c1") == start.addingTimeInterval(5))
        let reopened = try reopen(store)
        #expect(reopened.composeMark(in: "c1") == start.addingTimeInterval(5))

        // When enough other changes go through to compact the log down to its live content
        for round in 0..<520 {
            var other = message("x\(round)", at: Double(round))
            other.conversationID = "c2"
            try reopened.enqueue(other)
            try reopened.remove(other.id)
        }
        let compactedSize = logSize
        let afterCompaction = try reopen(reopened)

        // Then the log was compacted (its 1,042 records would take about 95 KB), both conversations keep their
        // newest stamp, and a message composed in c1 at the clock's earlier reading still goes after it
        #expect(compactedSize < 20_000)
        #expect(afterCompaction.composeMark(in: "c1") == start.addingTimeInterval(5))
        #expect(afterCompaction.composeMark(in: "c2") == start.addingTimeInterval(519))
        #expect(try afterCompaction.enqueueComposed(message("m6", at: 1)).timestamp == start.addingTimeInterval(5.001))
    }

    @Test("a version-1 log opens; its messages keep their stamps, which set the marks; new ones go after")
    func versionOneLogOpens() throws {
        // Given an outbox log written by the version-1 layout
        let (log, _, _) = try RecordLog.open(path: directory.path(FileOutboxStore.fileName))
        try log.append(Self.versionOnePut(id: "a", conversation: "c1", text: "first", time: 500))
        try log.append(Self.versionOnePut(id: "b", conversation: "c2", text: "other chat", time: 510))
        try log.append(Self.versionOnePut(id: "c", conversation: "c1", text: "second", time: 600))
        log.close()

        // When the store opens it
        let store = try open()

        // Then every message is there with its stamp, nothing is reported damaged, and each conversation's mark is
        // its newest stamp, which a new message goes after
        #expect(store.all().map(\.id) == ["a", "b", "c"])
        #expect(store.message("c")?.text == "second")
        #expect(store.recovery.corruptRecords == 0)
        #expect(store.composeMark(in: "c1") == Date(timeIntervalSinceReferenceDate: 600))
        #expect(store.composeMark(in: "c2") == Date(timeIntervalSinceReferenceDate: 510))
        #expect(store.composeMark(in: "c9") == nil)
        var early = message("d")
        early.timestamp = Date(timeIntervalSinceReferenceDate: 100)
        let next = try store.enqueueComposed(early)
        #expect(next.timestamp == Date(timeIntervalSinceReferenceDate: 600.001))
        #expect(try reopen(store).message("d")?.timestamp == next.timestamp)
    }

    @Test("an earlier build's version-2 log opens: its compose sequences and sequence marks are read and dropped")
    func sequencedLogOpens() throws {
        // Given a log an earlier build wrote: a put carrying compose sequence 7, and a compaction's sequence mark
        let (log, _, _) = try RecordLog.open(path: directory.path(FileOutboxStore.fileName))
        var put = OutboxRecord.put(message("a", at: 5)).encoded()
        put.replaceSubrange((put.count - 8)..., with: withUnsafeBytes(of: Int64(7).littleEndian) { Data($0) })
        try log.append(put)
        try log.append(Self.sequenceMark(conversation: "c3", sequence: 9))
        log.close()

        // When the store opens it
        let store = try open()

        // Then the message reads whole, nothing is reported damaged, and the marks come from stamps alone
        #expect(store.message("a") == message("a", at: 5))
        #expect(store.recovery.corruptRecords == 0)
        #expect(store.composeMark(in: "c1") == start.addingTimeInterval(5))
        #expect(store.composeMark(in: "c3") == nil)
    }

    /// A `put` body in the version-1 layout, byte by byte as the old build wrote it (docs/storage-format.md).
    private static func versionOnePut(id: String, conversation: String, text: String, time: Double) -> Data {
        var bytes = Data([1, 1])
        string(id, to: &bytes)
        string(conversation, to: &bytes)
        string("me", to: &bytes)
        string(text, to: &bytes)
        withUnsafeBytes(of: time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(1)  // queued
        withUnsafeBytes(of: time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(0).littleEndian) { bytes.append(contentsOf: $0) }  // attempts
        bytes.append(contentsOf: [0, 0, 0])  // no last error, no media, no thumbnail
        return bytes
    }

    /// A `sequenceMark` body (version 2, kind 6) as earlier builds' compactions wrote it.
    private static func sequenceMark(conversation: String, sequence: Int64) -> Data {
        var bytes = Data([2, 6])
        string(conversation, to: &bytes)
        withUnsafeBytes(of: sequence.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    private static func string(_ value: String, to bytes: inout Data) {
        let utf8 = Data(value.utf8)
        withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(utf8)
    }
}
