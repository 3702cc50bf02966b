import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@Suite("FileOutboxStore", .removesTemporaryDirectories)
struct FileOutboxStoreTests: StorageOutboxTesting {
    let directory: TemporaryDirectory

    // MARK: - Operations and reopen

    @Test("an enqueued message comes back whole after a reopen, in compose order whatever the enqueue order")
    func enqueueAndReopen() throws {
        // Given messages enqueued out of compose order, one with every optional field set
        let store = try open()
        var rich = message("b", at: 20, text: "caption ✓ \"quoted\"\nline", status: .failed)
        rich.attempts = 3
        rich.lastError = .server(code: 503)
        rich.media = MediaAttachment(url: "file:///a.jpg", thumbnailURL: "file:///a-small.jpg")
        rich.statusUpdatedAt = start.addingTimeInterval(31.125)
        let messages = [message("c", at: 30), rich, message("a", at: 10), message("a2", at: 10)]
        for message in messages { try store.enqueue(message) }
        #expect(store.all().map(\.id.rawValue) == ["a", "a2", "b", "c"])
        // When the store is reopened
        let reopened = try reopen(store)
        // Then every message is there, field for field, in compose order
        #expect(reopened.all() == messages.sorted(by: Message.composeOrder))
        #expect(reopened.message(MessageID("b")) == rich)
        #expect(reopened.count == 4)
        #expect(reopened.recovery == RecoveryReport(recoveredRecords: 4))
    }

    @Test("a removed message stays removed after a reopen; removing an unknown id changes nothing")
    func remove() throws {
        let store = try open()
        try store.enqueue(message("a"))
        try store.enqueue(message("b", at: 1))
        try store.remove(MessageID("a"))
        let size = logSize
        #expect(throws: InputError.unknownMessage("zzz")) { try store.remove(MessageID("zzz")) }
        #expect(logSize == size)
        let reopened = try reopen(store)
        #expect(reopened.all().map(\.id) == [MessageID("b")])
        #expect(reopened.message(MessageID("a")) == nil)
    }

    @Test("removeAll empties the outbox for good")
    func removeAll() throws {
        let store = try open()
        for index in 0..<5 { try store.enqueue(message("m\(index)", at: Double(index))) }
        try store.removeAll()
        #expect(store.count == 0)
        let reopened = try reopen(store)
        #expect(reopened.all().isEmpty)
        try reopened.enqueue(message("m0"))
        #expect(try reopen(reopened).count == 1)
    }

    @Test("an edited text is kept after a reopen; editing an unknown id throws .notFound")
    func updateText() throws {
        let store = try open()
        try store.enqueue(message("a"))
        let edited = try store.updateText(of: MessageID("a"), to: "edited")
        #expect(edited.text == "edited")
        #expect(throws: InputError.unknownMessage("b")) { try store.updateText(of: MessageID("b"), to: "x") }
        let reopened = try reopen(store)
        #expect(reopened.message(MessageID("a"))?.text == "edited")
        #expect(reopened.message(MessageID("a"))?.status == .queued)
    }

    @Test("a status change with attempts and error is kept after a reopen; nil error clears it")
    func updateStatus() throws {
        let store = try open()
        try store.enqueue(message("a"))
        let failedAt = start.addingTimeInterval(5)
        let failed = try store.updateStatus(
            of: MessageID("a"), to: .failed, at: failedAt, attempts: 4, lastError: .timeout)
        #expect(failed.status == .failed && failed.attempts == 4 && failed.lastError == .timeout)
        var reopened = try reopen(store)
        #expect(reopened.message(MessageID("a")) == failed)
        // When retried without an attempt count, the count stays and the error clears
        let retried = try reopened.updateStatus(
            of: MessageID("a"), to: .sent, at: failedAt, attempts: nil, lastError: nil)
        #expect(retried.attempts == 4 && retried.lastError == nil && retried.status == .sent)
        reopened = try reopen(reopened)
        #expect(reopened.message(MessageID("a")) == retried)
    }

    @Test("a status change that moves backwards is refused and changes nothing")
    func invalidTransition() throws {
        let store = try open()
        try store.enqueue(message("a", status: .queued))
        try store.updateStatus(of: MessageID("a"), to: .sending, at: start, attempts: 1, lastError: nil)
        try store.updateStatus(of: MessageID("a"), to: .sent, at: start, attempts: nil, lastError: nil)
        let before = store.message(MessageID("a"))
        let size = logSize
        #expect(throws: StoreError.invalidTransition(from: .sent, to: .queued)) {
            try store.updateStatus(of: MessageID("a"), to: .queued, at: start, attempts: 0, lastError: .offline)
        }
        #expect(throws: InputError.unknownMessage("b")) {
            try store.updateStatus(of: MessageID("b"), to: .sending, at: start, attempts: nil, lastError: nil)
        }
        #expect(store.message(MessageID("a")) == before)
        #expect(logSize == size)
    }

    @Test("messages found sending on open go back to queued, durably, keeping their id and attempts")
    func sendingRequeuedOnOpen() throws {
        // Given a message cut off mid-send (the process died while it was `sending`)
        let store = try open()
        try store.enqueue(message("a"))
        try store.enqueue(message("b", at: 1))
        try store.updateStatus(of: MessageID("a"), to: .sending, at: start, attempts: 2, lastError: nil)
        // When the store opens again
        let reopened = try reopen(store)
        // Then it is queued again with the same id, and that is on disk: a further reopen appends nothing
        #expect(reopened.message(MessageID("a"))?.status == .queued)
        #expect(reopened.message(MessageID("a"))?.attempts == 2)
        #expect(reopened.requeuedAtOpen == [MessageID("a")], "the outbox resends exactly the interrupted one")
        let size = logSize
        let again = try reopen(reopened)
        #expect(again.all().map(\.status) == [.queued, .queued])
        #expect(again.requeuedAtOpen.isEmpty)
        #expect(logSize == size)
    }

    // MARK: - Refusals

    @Test("a duplicate id is refused and changes nothing")
    func duplicateID() throws {
        let store = try open()
        try store.enqueue(message("a", text: "original"))
        let size = logSize
        #expect(throws: StoreError.duplicateID("a")) { try store.enqueue(message("a", at: 9, text: "copy")) }
        #expect(store.all() == [message("a", text: "original")])
        #expect(logSize == size)
    }

    @Test("a full outbox refuses more messages and evicts none; after a removal there is room again")
    func capacity() throws {
        let limits = OutboxLimits(capacity: 3)
        let store = try open(limits: limits)
        for index in 0..<3 { try store.enqueue(message("m\(index)", at: Double(index))) }
        #expect(throws: StoreError.capacityReached(limit: 3)) { try store.enqueue(message("m3", at: 3)) }
        #expect(store.all().map(\.id.rawValue) == ["m0", "m1", "m2"])
        try store.remove(MessageID("m0"))
        try store.enqueue(message("m3", at: 3))
        #expect(try reopen(store, limits: limits).all().map(\.id.rawValue) == ["m1", "m2", "m3"])
    }

    @Test("a message past the size limit is refused, on enqueue and on edit, and changes nothing")
    func messageTooLarge() throws {
        let store = try open(limits: OutboxLimits(maxMessageBytes: 1_000))
        let huge = String(repeating: "x", count: 1_000)
        #expect(throws: StoreError.self) { try store.enqueue(message("big", text: huge)) }
        #expect(store.count == 0)
        try store.enqueue(message("a", text: "short"))
        let size = logSize
        do {
            try store.updateText(of: MessageID("a"), to: huge)
            Issue.record("an oversized edit was accepted")
        } catch let error as StoreError where error.code == .recordTooLarge {
            #expect(error.bytes ?? 0 > error.limit ?? 0 && error.limit == 1_000)
        }
        #expect(store.message(MessageID("a"))?.text == "short")
        #expect(logSize == size)
    }
}
