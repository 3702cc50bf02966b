import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

extension FileOutboxStoreTests {
    @Test("a send with no answer leaves the outcome unknown for good: through later errors, a reopen and a put")
    func unknownOutcomeOutlivesLaterErrorsAndReopens() throws {
        // Given two queued messages
        let store = try open()
        try store.enqueue(message("a"))
        try store.enqueue(message("b", at: 1))

        // When a's send goes unanswered and its next attempt finds the device offline, and b's is refused outright
        try store.updateStatus(of: MessageID("a"), to: .sending, at: start, attempts: nil, lastError: nil)
        try store.updateStatus(of: MessageID("a"), to: .queued, at: start, attempts: 0, lastError: .unanswered)
        try store.updateStatus(of: MessageID("a"), to: .sending, at: start, attempts: nil, lastError: .unanswered)
        try store.updateStatus(of: MessageID("a"), to: .queued, at: start, attempts: 0, lastError: .offline)
        try store.updateStatus(of: MessageID("b"), to: .failed, at: start, attempts: 1, lastError: .forbidden)

        // Then a's outcome stays unknown (the offline attempt never reached the backend, so it settles nothing), b's
        // is known, in memory and after a reopen
        #expect(store.message(MessageID("a"))?.outcomeUnknown == true)
        #expect(store.message(MessageID("a"))?.lastError == .offline)
        #expect(store.message(MessageID("b"))?.outcomeUnknown == false)
        let reopened = try reopen(store)
        #expect(reopened.message(MessageID("a"))?.outcomeUnknown == true)
        #expect(reopened.message(MessageID("a"))?.lastError == .offline)
        #expect(reopened.message(MessageID("b"))?.outcomeUnknown == false)

        // And a message stored whole with the mark (as a compaction writes the live ones) keeps it
        var whole = message("c", at: 2)
        whole.outcomeUnknown = true
        try reopened.enqueue(whole)
        #expect(try reopen(reopened).message(MessageID("c"))?.outcomeUnknown == true)
    }

    @Test("a timed-out attempt leaves the outcome unknown too; no error that never reached the backend does")
    func whichErrorsLeaveTheOutcomeUnknown() throws {
        let store = try open()
        let errors: [DeliveryError] = [
            .timeout, .unanswered, .offline, .unreachable, .unauthorized, .server(code: 500),
        ]
        for (index, error) in errors.enumerated() {
            let id = MessageID("m\(index)")
            try store.enqueue(message(id.rawValue, at: Double(index)))
            try store.updateStatus(of: id, to: .queued, at: start, attempts: 0, lastError: error)
        }
        let reopened = try reopen(store)
        let unknown = errors.indices.map { reopened.message(MessageID("m\($0)"))?.outcomeUnknown }
        #expect(unknown == [true, true, false, false, false, false])
    }
}

extension FileOutboxStoreTests {
    @Test("a Send All is one record that outlives the process; a failed attempt carries it out, a put keeps it")
    func sendAllRequestOutlivesTheProcess() throws {
        // Given two queued messages and one sending
        let store = try open()
        try store.enqueue(message("a"))
        try store.enqueue(message("b", at: 1))
        try store.enqueue(message("c", at: 2, status: .sending))
        let size = logSize

        // When Send All is recorded
        let asked = try store.requestSendAll()

        // Then the waiting two are requested by one small record, and a second request adds nothing
        #expect(asked.map(\.id.rawValue) == ["a", "b"])
        #expect(logSize - size < 64)
        #expect(try store.requestSendAll().isEmpty)

        // And after a reopen they still are; an attempt that ends failed carries b's request out
        let reopened = try reopen(store)
        #expect(["a", "b", "c"].map { reopened.message(MessageID($0))?.sendRequested } == [true, true, false])
        try reopened.updateStatus(of: MessageID("b"), to: .failed, at: start, attempts: 1, lastError: .forbidden)
        let again = try reopen(reopened)
        #expect(again.message(MessageID("a"))?.sendRequested == true)
        #expect(again.message(MessageID("b"))?.sendRequested == false)

        // And a message stored whole with both flags (as a compaction writes it) keeps them
        var whole = message("d", at: 3)
        whole.sendRequested = true
        whole.outcomeUnknown = true
        try again.enqueue(whole)
        let last = try reopen(again).message(MessageID("d"))
        #expect(last?.sendRequested == true && last?.outcomeUnknown == true)
    }
}
