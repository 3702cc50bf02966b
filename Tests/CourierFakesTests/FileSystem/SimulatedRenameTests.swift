import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A power cut may keep or lose a rename that no directory sync covered — the seed decides — so code that renames
/// a file before its content is durable shows its loss under some seeds.
@Suite("SimulatedFileSystem: un-synced renames")
struct SimulatedRenameTests {
    private func bytes(_ text: String) -> Data { Data(text.utf8) }

    /// Writes `new` into a temporary file, renames it over `/d/settings` (holding "old", durable), syncing the new
    /// file's content before the rename only when `syncFirst`; then cuts the power. Returns what the file holds.
    private func replaceThenCrash(seed: UInt64, syncFirst: Bool) throws -> Data? {
        let fs = SimulatedFileSystem(tornWrites: LockedRandom(seed: seed))
        try fs.createDirectory("/d")
        try fs.writeSynced("/d/settings", "old")
        try fs.syncDirectory("/d")
        let temporary = try fs.open("/d/settings.tmp", create: true)
        try fs.write(bytes("new"), at: 0, to: temporary)
        if syncFirst { try fs.sync(temporary) }
        try fs.rename("/d/settings.tmp", to: "/d/settings")
        fs.crash()
        return fs.contents(of: "/d/settings")
    }

    @Test("across seeds, an un-synced rename is sometimes kept and sometimes lost, never half done")
    func renameKeptOrLostBySeed() throws {
        // Given a synced replacement renamed over a durable file, with no directory sync after the rename
        var outcomes: Set<Data?> = []
        for seed in UInt64(0)..<64 {
            // When the power is cut
            let after = try replaceThenCrash(seed: seed, syncFirst: true)
            outcomes.insert(after)
        }
        // Then each seed found either the old file or the new one, and both happened
        #expect(outcomes == [bytes("old"), bytes("new")])
    }

    @Test("a seed replays its power cut identically")
    func sameSeedSameOutcome() throws {
        for seed in UInt64(0)..<16 {
            let first = try replaceThenCrash(seed: seed, syncFirst: false)
            #expect(try replaceThenCrash(seed: seed, syncFirst: false) == first)
        }
    }

    @Test("renaming before syncing the content loses the file's data under some seeds")
    func renameBeforeSyncLosesData() throws {
        // Given replacements renamed before their content was synced
        var outcomes: Set<Data?> = []
        for seed in UInt64(0)..<64 { outcomes.insert(try replaceThenCrash(seed: seed, syncFirst: false)) }
        // Then some power cut kept the rename but not the content: neither the old text nor the new one is left
        #expect(outcomes.contains { $0 != bytes("old") && $0 != bytes("new") })
    }

    @Test("without a seeded generator every un-synced directory change is lost, as before")
    func withoutGeneratorNothingIsKept() throws {
        let fs = SimulatedFileSystem()
        try fs.createDirectory("/d")
        let file = try fs.open("/d/a", create: true)
        try fs.sync(file)
        try fs.rename("/d/a", to: "/d/b")
        let crash = fs.crash()
        #expect(try fs.list("/d").isEmpty)
        #expect(crash.entryChangesKept == 0)
    }

    @Test("a directory sync makes earlier changes in that directory durable whatever the seed")
    func directorySyncIsDurable() throws {
        for seed in UInt64(0)..<16 {
            let fs = SimulatedFileSystem(tornWrites: LockedRandom(seed: seed))
            try fs.createDirectory("/d")
            try fs.writeSynced("/d/a", "a")
            try fs.rename("/d/a", to: "/d/b")
            try fs.syncDirectory("/d")
            fs.crash()
            #expect(try fs.list("/d") == ["b"], "seed \(seed)")
            #expect(fs.contents(of: "/d/b") == bytes("a"), "seed \(seed)")
        }
    }
}
