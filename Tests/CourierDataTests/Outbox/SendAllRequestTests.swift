import CourierDomain
import Foundation
import Testing

@testable import CourierStore

/// Whether a Send All still waits, alone: the store's recorded requests, and those held in memory when it refused.
@Suite struct SendAllRequestTests {
    private func message(_ id: String, _ status: MessageStatus, recorded: Bool = false) -> Message {
        var message = Message(
            id: MessageID(id), conversationID: "c1", senderID: "me", text: id,
            timestamp: Date(timeIntervalSinceReferenceDate: 0), status: status)
        message.sendRequested = recorded
        return message
    }

    @Test func aRecordedRequestWaitsWhileTheStoreCountsIt() {
        var request = SendAllRequest()

        request.note(recorded: 2) { _ in nil }
        #expect(request.isWaiting)
        #expect(request.covers(message("m1", .queued, recorded: true)))
        #expect(!request.covers(message("m2", .queued)))

        request.note(recorded: 0) { _ in nil }
        #expect(!request.isWaiting)
    }

    @Test func aRequestTheStoreRefusedWaitsInMemoryUntilItsMessagesGoOrFail() {
        // Given a Send All over m1 and m2 the store could not record
        var request = SendAllRequest()
        request.holdInMemory(["m1", "m2"])
        var statuses: [MessageID: MessageStatus] = ["m1": .queued, "m2": .queued]
        request.note(recorded: 0) { statuses[$0] }

        // Then it waits, and covers them while they are not failed
        #expect(request.isWaiting)
        #expect(request.covers(message("m1", .queued)))
        #expect(!request.covers(message("m1", .failed)))

        // When m1 went (the store no longer holds it) and m2 failed, nothing waits
        statuses = ["m2": .failed]
        request.note(recorded: 0) { statuses[$0] }
        #expect(!request.isWaiting)
        #expect(!request.covers(message("m2", .queued)))
    }
}
