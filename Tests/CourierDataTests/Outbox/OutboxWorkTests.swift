import CourierDomain
import Foundation
import Testing

@testable import CourierStore

/// The sends an outbox has under way, alone: what a lane sends next, and whether anything runs.
@Suite struct OutboxWorkTests {
    private func sending(_ ids: String...) -> [Message] {
        ids.enumerated().map { index, id in
            Message(
                id: MessageID(id), conversationID: "c1", senderID: "me", text: id,
                timestamp: Date(timeIntervalSinceReferenceDate: Double(index)), status: .sending)
        }
    }

    @Test func withoutHandSentMessagesTheLaneSendsThemAllTogether() {
        var work = OutboxWork()

        let next = work.nextBatch(of: sending("m1", "m2", "m3"))

        #expect(next.messages.map(\.id) == ["m1", "m2", "m3"])
        #expect(!next.manual)
    }

    @Test func theMessagesBeforeAHandSentOneGoTogetherAndItThenGoesAloneOnce() {
        // Given m3 sent by hand behind m1 and m2
        var work = OutboxWork()
        work.manualAttempts = ["m3"]

        // When the lane takes its requests in turn
        let first = work.nextBatch(of: sending("m1", "m2", "m3", "m4"))
        let second = work.nextBatch(of: sending("m3", "m4"))
        let third = work.nextBatch(of: sending("m3", "m4"))

        // Then m1 and m2 go with the retry budget, m3 alone by hand, and m3 again (its answer lost) with m4
        #expect(first.messages.map(\.id) == ["m1", "m2"] && !first.manual)
        #expect(second.messages.map(\.id) == ["m3"] && second.manual)
        #expect(third.messages.map(\.id) == ["m3", "m4"] && !third.manual)
        #expect(work.manualAttempts.isEmpty)
    }

    @Test func nothingToSendIsAnEmptyRequest() {
        var work = OutboxWork()
        work.manualAttempts = ["m1"]

        let next = work.nextBatch(of: [])

        #expect(next.messages.isEmpty && !next.manual)
        #expect(work.manualAttempts == ["m1"])
    }

    @Test func anAwaitedSendKeepsTheOutboxBusy() {
        var work = OutboxWork()
        #expect(!work.isBusy && work.running.isEmpty)

        work.operations += 1
        #expect(work.isBusy)

        work.operations -= 1
        #expect(!work.isBusy)
    }
}
