import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Compose sequences in the outbox log: kept with each message, never reused, and given to version-1 logs.
@Suite("FileOutboxStore sequences", .removesTemporaryDirectories)
struct FileOutboxStoreSequenceTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    @Test("a version-1 log opens; its messages get sequences in stored order, stable on every open; new ones go on")
    func versionOneLogIsMigrated() throws {
        // Given an outbox log written by the version-1 layout (no sequences), stored in compose order although
        // the clock went back between the first and the third message
        let (log, _, _) = try RecordLog.open(path: directory.path(FileOutboxStore.fileName))
        try log.append(Self.versionOnePut(id: "a", conversation: "c1", text: "first", time: 500))
        try log.append(Self.versionOnePut(id: "b", conversation: "c2", text: "other chat", time: 510))
        try log.append(Self.versionOnePut(id: "c", conversation: "c1", text: "second", time: 100))
        log.close()

        // When the store opens it (twice)
        let store = try open()
        let sequences = ["a", "b", "c"].map { store.message(MessageID($0))?.sequence }
        let reopened = try reopen(store)

        // Then each conversation's messages are numbered in stored order, the same both times, texts intact
        #expect(sequences == [1, 1, 2])
        #expect(["a", "b", "c"].map { reopened.message(MessageID($0))?.sequence } == sequences)
        #expect(reopened.message("c")?.text == "second")
        #expect(reopened.recovery.corruptRecords == 0)
        // And new messages continue each conversation's count, and keep it (version 2) after a reopen
        #expect(reopened.nextSequence(in: "c1") == 3)
        #expect(reopened.nextSequence(in: "c2") == 2)
        #expect(reopened.nextSequence(in: "c9") == 1)
        var next = message("d", at: 1_000)
        next.sequence = reopened.nextSequence(in: "c1")
        try reopened.enqueue(next)
        #expect(try reopen(reopened).message("d")?.sequence == 3)
    }

    @Test("a sequence is never reused: not after its message is removed and reopened, nor after a compaction")
    func sequencesSurviveRemovalAndCompaction() throws {
        // Given a message with sequence 5 in c1 that was delivered (removed)
        let store = try open()
        var delivered = message("m5")
        delivered.sequence = 5
        try store.enqueue(delivered)
        try store.remove("m5")
        #expect(store.nextSequence(in: "c1") == 6)
        let reopened = try reopen(store)
        #expect(reopened.nextSequence(in: "c1") == 6)

        // When enough other changes go through to compact the log down to its live content
        for round in 0..<520 {
            var other = message("x\(round)")
            other.conversationID = "c2"
            other.sequence = round + 1
            try reopened.enqueue(other)
            try reopened.remove(other.id)
        }
        let compactedSize = logSize
        let afterCompaction = try reopen(reopened)

        // Then the log was compacted (its 1,042 records would take about 95 KB), and both conversations still
        // continue after their highest sequence
        #expect(compactedSize < 20_000)
        #expect(afterCompaction.nextSequence(in: "c1") == 6)
        #expect(afterCompaction.nextSequence(in: "c2") == 521)
    }

    /// A `put` body in the version-1 layout, byte by byte as the old build wrote it (docs/storage-format.md).
    private static func versionOnePut(id: String, conversation: String, text: String, time: Double) -> Data {
        var bytes = Data([1, 1])
        func string(_ value: String) {
            let utf8 = Data(value.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(utf8)
        }
        func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        string(id)
        string(conversation)
        string("me")
        string(text)
        double(time)
        bytes.append(1)  // queued
        double(time)
        withUnsafeBytes(of: Int64(0).littleEndian) { bytes.append(contentsOf: $0) }  // attempts
        bytes.append(contentsOf: [0, 0, 0])  // no last error, no media, no thumbnail
        return bytes
    }
}
