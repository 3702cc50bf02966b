import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Both outbox stores count their messages by status as they change, so a banner reads two numbers, not the queue.
@Suite("Outbox status counts", .removesTemporaryDirectories)
struct OutboxStatusCountTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    /// Five messages: one starts to send, one fails, one is cut off and queued again, one is edited, one removed.
    private func exercise(_ store: any OutboxStore) throws {
        for index in 0..<5 { try store.enqueue(message("m\(index)", at: TimeInterval(index))) }
        try store.updateStatus(of: "m0", to: .sending, at: start, attempts: nil, lastError: nil)
        try store.updateStatus(of: "m1", to: .failed, at: start, attempts: 1, lastError: .timeout)
        try store.updateStatus(of: "m2", to: .sending, at: start, attempts: nil, lastError: nil)
        try store.updateStatus(of: "m2", to: .queued, at: start, attempts: nil, lastError: .offline)
        try store.updateText(of: "m3", to: "edited")
        try store.remove("m4")
    }

    private func expectCounts(_ store: any OutboxStore, queued: Int, sending: Int, failed: Int) {
        for (status, expected) in [(MessageStatus.queued, queued), (.sending, sending), (.failed, failed), (.sent, 0)] {
            #expect(store.count(of: status) == expected, "\(status)")
            #expect(store.count(of: status) == store.all().filter { $0.status == status }.count, "\(status)")
        }
    }

    @Test("the file store's counts follow every change, and a reopen counts the same (a send cut off is queued)")
    func fileStore() throws {
        // Given a file store that went through every kind of change
        let store = try open()
        try exercise(store)

        // Then it counts 2 queued, 1 sending, 1 failed; reopened, the sending one is queued again
        expectCounts(store, queued: 2, sending: 1, failed: 1)
        let reopened = try reopen(store)
        expectCounts(reopened, queued: 3, sending: 0, failed: 1)

        // When everything is removed, nothing is counted
        try reopened.removeAll()
        expectCounts(reopened, queued: 0, sending: 0, failed: 0)
    }

    @Test("the in-memory store's counts follow every change, also for messages it was made with")
    func memoryStore() throws {
        // Given an in-memory store that went through every kind of change
        let store = InMemoryOutboxStore()
        try exercise(store)

        // Then it counts 2 queued, 1 sending, 1 failed; one made from those messages requeues the sending one
        expectCounts(store, queued: 2, sending: 1, failed: 1)
        let remade = InMemoryOutboxStore(messages: store.all())
        expectCounts(remade, queued: 3, sending: 0, failed: 1)

        // When everything is removed, nothing is counted
        try remade.removeAll()
        expectCounts(remade, queued: 0, sending: 0, failed: 0)
    }
}
