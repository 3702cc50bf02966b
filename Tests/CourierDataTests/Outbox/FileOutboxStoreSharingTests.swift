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

    @Test("two stores see each other's appends; composed stamps strictly increase across them, whatever each clock")
    func appendsAreSeenAndStampsShared() throws {
        // Given an owner and a guest on one directory (two processes), the guest's clock ten seconds behind
        let owner = try shared(.owner)
        let guest = try shared(.guest)
        defer {
            owner.close()
            guest.close()
        }

        // When they compose into one conversation in turn, each at its clock's reading
        var composed: [Message] = []
        for index in 0..<6 {
            let store = index.isMultiple(of: 2) ? owner : guest
            let reading = index.isMultiple(of: 2) ? Double(index) : Double(index) - 10
            composed.append(try store.enqueueComposed(message("m\(index)", at: reading)))
        }

        // Then each stamp comes after the one composed before it — the owner's readings stand, each guest message a
        // millisecond after the owner's before it — so compose order is the order they were composed in; and each
        // store learns of the other's messages
        let stamps = composed.map { $0.timestamp.timeIntervalSince(start) }
        let expected = [0, 0.001, 2, 2.001, 4, 4.001]
        #expect(zip(stamps, expected).allSatisfy { abs($0 - $1) < 0.000_01 })
        #expect(zip(composed, composed.dropFirst()).allSatisfy { Message.composeOrder($0, $1) })
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
        defer {
            owner.close()
            guest.close()
        }

        // When a guest appends 300 messages at the same time, on another thread
        // Each on a thread of its own: thousands of syncs must not hold the cooperative pool the other tests need.
        let churn = OwnThread {
            Result {
                for index in 0..<1_500 {
                    try owner.enqueue(message("churn\(index)", at: Double(index)))
                    try owner.remove(MessageID("churn\(index)"))
                }
            }
        }
        let appends = OwnThread {
            Result {
                for index in 0..<300 {
                    _ = try guest.enqueueComposed(message("g\(index)", at: 10_000 + Double(index)))
                }
            }
        }
        try await churn.value.get()
        try await appends.value.get()

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
        let stamps = reopened.all().map(\.timestamp)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
    }
}
