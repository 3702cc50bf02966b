import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// The one contract of `RecordStorage`, run against both implementations: whatever a store does with the file-backed
/// storage, it can do with the in-memory one, and the other way round.
@Suite(.removesTemporaryDirectories) struct RecordStorageContractTests {
    /// The storages under the contract.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case recordLog, inMemory
        var testDescription: String { rawValue }
    }

    @Test(arguments: Kind.allCases) func aNewStorageHoldsNothing(kind: Kind) throws {
        let subject = try RecordStorageSubject(kind)
        #expect(try subject.storage.loadRecords() == [])
    }

    @Test(arguments: Kind.allCases) func appendedRecordsComeBackInOrderAfterAReopen(kind: Kind) throws {
        // Given records of every shape, appended in two calls (empty, binary, bytes that look like a frame marker)
        let subject = try RecordStorageSubject(kind)
        let records = [
            Data("one".utf8), Data(), Data([0, 0xFF, 0xC0, 0x4C, 0x52, 0]), Data(repeating: 7, count: 5_000),
        ]
        try subject.storage.append(Array(records.prefix(2)))
        try subject.storage.append(Array(records.dropFirst(2)))

        // When the store opens it again
        try subject.reopen()

        // Then it finds exactly those records, in the order they were appended
        #expect(try subject.storage.loadRecords() == records)
    }

    @Test(arguments: Kind.allCases) func compactionReplacesEverythingAndLaterAppendsFollowIt(kind: Kind) throws {
        // Given a storage with dead records, compacted to two live ones, then appended to
        let subject = try RecordStorageSubject(kind)
        try subject.storage.append((0..<20).map { Data("dead \($0)".utf8) })
        try subject.storage.compact(keeping: [Data("live 1".utf8), Data("live 2".utf8)])
        try subject.storage.append([Data("after".utf8)])

        // When it is reopened
        try subject.reopen()

        // Then it holds the compacted records and the later append, nothing else
        #expect(try subject.storage.loadRecords() == ["live 1", "live 2", "after"].map { Data($0.utf8) })
    }

    @Test(arguments: Kind.allCases) func compactingToNothingEmptiesIt(kind: Kind) throws {
        let subject = try RecordStorageSubject(kind)
        try subject.storage.append([Data("gone".utf8)])
        try subject.storage.compact(keeping: [])
        try subject.reopen()
        #expect(try subject.storage.loadRecords() == [])
    }

    @Test(arguments: Kind.allCases) func aFailedAppendStoresNoneOfItsRecordsAndTheStorageGoesOn(kind: Kind) throws {
        // Given a storage holding one record, whose next append fails
        let subject = try RecordStorageSubject(kind)
        try subject.storage.append([Data("kept".utf8)])
        subject.failWrites(true)

        // When a batch is appended, then writes work again and another record is appended
        #expect(throws: StoreError.self) { try subject.storage.append([Data("lost 1".utf8), Data("lost 2".utf8)]) }
        subject.failWrites(false)
        try subject.storage.append([Data("later".utf8)])

        // Then nothing of the failed batch is there
        try subject.reopen()
        #expect(try subject.storage.loadRecords() == ["kept", "later"].map { Data($0.utf8) })
    }

    @Test(arguments: Kind.allCases) func aFailedCompactionKeepsTheOldRecords(kind: Kind) throws {
        let subject = try RecordStorageSubject(kind)
        try subject.storage.append([Data("a".utf8), Data("b".utf8)])
        subject.failWrites(true)
        #expect(throws: StoreError.self) { try subject.storage.compact(keeping: [Data("new".utf8)]) }
        subject.failWrites(false)
        try subject.reopen()
        #expect(try subject.storage.loadRecords() == ["a", "b"].map { Data($0.utf8) })
    }
}

/// One storage under the contract, with what a test does to it from outside: reopen it (a restart of the store's
/// process) and make its writes fail (a full disk).
final class RecordStorageSubject {
    private let kind: RecordStorageContractTests.Kind
    private let directory: TemporaryDirectory
    private let fileSystem = StorageCountingFileSystem()
    private(set) var storage: any RecordStorage

    init(_ kind: RecordStorageContractTests.Kind) throws {
        self.kind = kind
        directory = try TemporaryDirectory()
        storage = InMemoryRecordStorage()
        try reopen()
    }

    /// Opens the storage again over what the previous one stored.
    func reopen() throws {
        switch kind {
        case .recordLog:
            (storage as? RecordLogStorage)?.close()
            storage = try RecordLogStorage(path: directory.path("records.log"), fileSystem: fileSystem)
        case .inMemory:
            storage = InMemoryRecordStorage(records: (storage as? InMemoryRecordStorage)?.records ?? [])
        }
    }

    /// Makes every later write fail, or work again.
    func failWrites(_ failing: Bool) {
        fileSystem.failWrites(failing)
        (storage as? InMemoryRecordStorage)?.failsWrites = failing
    }

    deinit { (storage as? RecordLogStorage)?.close() }
}
