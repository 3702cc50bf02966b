import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Several writes queued in one call: one durable append for all of them, each coalescing by key as a single
/// enqueue does, and all or nothing.
@MainActor
@Suite struct OfflineWriteQueueBatchTests {
    private func setting(_ name: String, _ value: String) -> (key: String?, payload: WriteQueueTestSetting) {
        (key: name.isEmpty ? nil : name, payload: WriteQueueTestSetting(name: name, value: value))
    }

    @Test func writesQueuedTogetherAreOneAppendAndReplaceQueuedOnesByKey() throws {
        // Given a queue holding a write keyed "name"
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let old = try fixture.enqueue(queue, "Ana", key: "name")
        let appends = fixture.storage.appends

        // When four writes are queued in one call, two of them with the same key "color"
        let queued = try queue.enqueue(
            kind: "setting",
            writes: [setting("name", "Ben"), setting("color", "red"), setting("", "loose"), setting("color", "blue")])

        // Then storage took one append; "name" replaced the queued write, the later "color" the earlier one; the
        // queue holds the three in order, also after a reopen
        #expect(fixture.storage.appends == appends + 1)
        let values = try queued.map { try $0.decodePayload(WriteQueueTestSetting.self).value }
        #expect(values == ["Ben", "loose", "blue"])
        #expect(queued.map(\.key) == ["name", nil, "color"])
        #expect(Set(queued.map(\.id)).count == 3 && !queued.contains { $0.id == old.id })
        #expect(queue.allWrites == queued)
        #expect(try fixture.open().allWrites == queued)
        #expect(fixture.events.events.last == .pendingCountChanged(3))
    }

    @Test func aBatchWithAWriteTheQueueRefusesQueuesNone() throws {
        // Given a queue with room for two writes, holding one
        let fixture = WriteQueueFixture(configuration: WriteQueueConfiguration(capacity: 2))
        let queue = try fixture.open()
        let held = try fixture.enqueue(queue, "held", key: "kept")
        let appends = fixture.storage.appends

        // When a batch brings two new writes, then a batch holds an empty key
        #expect(throws: StoreError.capacityReached(limit: 2)) {
            try queue.enqueue(kind: "setting", writes: [setting("a", "1"), setting("b", "2")])
        }
        #expect(throws: WriteQueueError.emptyKey) {
            try queue.enqueue(kind: "setting", writes: [(key: "", payload: WriteQueueTestSetting(name: "", value: ""))])
        }

        // Then nothing was written; a batch that replaces the held write and adds one fits
        #expect(fixture.storage.appends == appends)
        #expect(queue.allWrites == [held])
        let fits = try queue.enqueue(kind: "setting", writes: [setting("kept", "new"), setting("b", "2")])
        #expect(queue.allWrites == fits && fits.count == 2)
    }
}
