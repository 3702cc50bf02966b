import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// A shared outbox log (`OutboxAccess.owner` / `.guest`): several stores — each its own open file, as separate
/// processes have — change it at once, each under the append lock after reading the others' appends.
@Suite("FileOutboxStore sharing", .removesTemporaryDirectories)
struct FileOutboxStoreSharingTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    private func shared(_ access: OutboxAccess) throws -> FileOutboxStore {
        try FileOutboxStore(directory: directory.url, access: access)
    }

    @Test("two stores see each other's appends; composed sequences stay unique and ordered across them")
    func appendsAreSeenAndSequencesShared() throws {
        // Given an owner and a guest on one directory
        let owner = try shared(.owner)
        let guest = try shared(.guest)
        defer { owner.close(); guest.close() }

        // When they compose into one conversation in turn
        var composed: [Message] = []
        for index in 0..<6 {
            let store = index.isMultiple(of: 2) ? owner : guest
            composed.append(try store.enqueueComposed(message("m\(index)", at: Double(index))))
        }

        // Then the sequences are 1…6 in compose order, and each store learns of the other's messages
        #expect(composed.map(\.sequence) == Array(1...6))
        let seenByOwner = try owner.refresh()
        #expect(Set(seenByOwner.changed.map(\.id.rawValue)) == ["m1", "m3", "m5"])
        #expect(owner.all().map(\.id.rawValue) == (0..<6).map { "m\($0)" })
        // And a removal by one reaches the other as a removal
        try guest.remove("m0")
        #expect(try owner.refresh().removed == ["m0"])
        #expect(owner.message("m0") == nil)
    }

    @Test("a compaction racing another store's appends drops none of them")
    func compactionKeepsConcurrentAppends() async throws {
        // Given an owner that churns (enqueue, remove: dead records pile up and compactions follow)
        let owner = try shared(.owner)
        let guest = try shared(.guest)
        defer { owner.close(); guest.close() }

        // When a guest appends 300 messages at the same time, on another thread
        async let churn: Void = Task.detached {
            for index in 0..<1_500 {
                try owner.enqueue(message("churn\(index)", at: Double(index)))
                try owner.remove(MessageID("churn\(index)"))
            }
        }.value
        async let appends: Void = Task.detached {
            for index in 0..<300 { _ = try guest.enqueueComposed(message("g\(index)", at: 10_000 + Double(index))) }
        }.value
        _ = try await (churn, appends)

        // Then the log was compacted, and the owner, the guest and a fresh open all hold every guest message once
        _ = try owner.refresh()
        _ = try guest.refresh()
        let expected = (0..<300).map { "g\($0)" }
        #expect(owner.all().map(\.id.rawValue) == expected)
        #expect(guest.all().map(\.id.rawValue) == expected)
        owner.close()
        guest.close()
        let reopened = try shared(.owner)
        defer { reopened.close() }
        #expect(reopened.all().map(\.id.rawValue) == expected)
        #expect(reopened.all().map(\.sequence) == Array(1...300))
    }
}
