import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// A shared log (several processes, each its own open file) grows ahead of its records as a log with one owner does,
/// so that most appends' syncs flush the data alone; another process's append is still found — by the word where a
/// process's reading ended no longer being zero — and a torn frame in the space written ahead is still cut.
@Suite("RecordLog: a shared log written ahead", .removesTemporaryDirectories)
struct RecordLogSharedAheadTests {
    private let directory: TemporaryDirectory
    private var path: String { directory.path("shared.log") }

    init() throws { directory = try TemporaryDirectory() }

    private func openShared() throws -> RecordLog { try RecordLog.openInPlace(path: path, shared: true).log }

    private func fileSize() throws -> Int { try Data(contentsOf: URL(fileURLWithPath: path)).count }

    private func append(_ text: String, to log: RecordLog) throws -> [String] {
        try log.transaction { tail, writer in
            try writer.append(contentsOf: [Data(text.utf8)])
            return Self.texts(of: tail)
        }
    }

    /// What a catch-up brought, as text.
    private static func texts(of tail: RecordLog.TailChange) -> [String] {
        switch tail {
        case .none: []
        case .appended(let contents, let bodies), .replaced(let contents, let bodies):
            bodies.map {
                String(
                    decoding: contents[contents.startIndex + $0.lowerBound..<contents.startIndex + $0.upperBound],
                    as: UTF8.self)
            }
        }
    }

    @Test("appends land in space written ahead, and each process still finds exactly what the other appended")
    func appendsAheadAreSeenByTheOther() throws {
        // Given two processes' logs on one shared file
        let first = try openShared()
        let second = try openShared()
        defer {
            first.close()
            second.close()
        }

        // When the first appends 100 records one by one, noting the file's size after each
        var sizes: Set<Int> = []
        for index in 0..<100 {
            #expect(try append("a\(index)", to: first).isEmpty)
            sizes.insert(try fileSize())
        }

        // Then the file grew once, ahead of the records, and holds zeros after them
        #expect(sizes.count == 1)
        let size = try fileSize()
        #expect(size > first.byteCount)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes[first.byteCount...].allSatisfy { $0 == 0 })
        // And the second sees that the first appended, catches up with exactly its 100 records, and then sees
        // nothing more; nor does the first, whose own appends are no news to it
        #expect(second.mayHaveForeignChanges)
        #expect(try append("b0", to: second) == (0..<100).map { "a\($0)" })
        #expect(!second.mayHaveForeignChanges)
        #expect(first.mayHaveForeignChanges)
        #expect(try append("a100", to: first) == ["b0"])
        #expect(!first.mayHaveForeignChanges)
        #expect(try fileSize() == size)

        // And a reopen finds all 102, reports nothing and keeps the space written ahead
        let reopened = try RecordLog.openInPlace(path: path, shared: true)
        defer { reopened.log.close() }
        #expect(reopened.bodies.count == 102)
        #expect(reopened.report == RecoveryReport(recoveredRecords: 102))
        #expect(try fileSize() == size)
    }

    @Test("a frame torn in the space written ahead is cut by the next holder, and nothing acknowledged is lost")
    func aTornFrameAheadIsCut() throws {
        // Given a shared log with two records, and the file's zeros after them where a killed process left half a
        // frame (its marker, a length and 58 of its bytes: longer than the next append)
        let first = try openShared()
        let second = try openShared()
        defer {
            first.close()
            second.close()
        }
        _ = try append("one", to: first)
        _ = try append("two", to: first)
        let end = first.byteCount
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(end))
        try handle.write(contentsOf: Data([0xFF, 0xC0, 0x4C, 0x52, 0x30, 0x00]) + Data(repeating: 0x61, count: 58))
        try handle.close()

        // When the other process appends
        let seen = try append("three", to: second)

        // Then it caught up with the two records, cut the torn frame, and appended after them; the first finds its
        // record, and a reopen reads the three in order
        #expect(seen == ["one", "two"])
        #expect(second.byteCount > end)
        #expect(try append("four", to: first) == ["three"])
        let reopened = try RecordLog.openInPlace(path: path, shared: true)
        defer { reopened.log.close() }
        #expect(
            Self.texts(of: .replaced(contents: reopened.contents, bodies: reopened.bodies)) == [
                "one", "two", "three", "four",
            ])
        #expect(reopened.report == RecoveryReport(recoveredRecords: 4))
    }

    @Test("a shared log an earlier build left exactly as long as its records is appended to ahead from then on")
    func anExactLogIsWrittenAheadAfterItsNextAppend() throws {
        // Given a shared log whose file ends with its last record (as builds before the space written ahead left it)
        let first = try openShared()
        _ = try append("one", to: first)
        let end = first.byteCount
        first.close()
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(end))
        try handle.close()

        // When it is opened and appended to
        let log = try openShared()
        defer { log.close() }
        #expect(!log.mayHaveForeignChanges)
        #expect(try append("two", to: log).isEmpty)

        // Then the file has grown ahead of its records
        #expect(try fileSize() > log.byteCount)
    }
}
