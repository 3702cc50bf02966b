import CourierDomain
import Foundation
import Testing

@Suite struct MessageStatusTests {
    @Test func theLifecycleOfGuideSection3IsAllowed() {
        let allowed: [(MessageStatus, MessageStatus)] = [
            (.queued, .sending), (.sending, .sent), (.sent, .delivered), (.delivered, .read), (.sending, .failed),
            (.failed, .sending), (.sending, .queued), (.queued, .failed),
        ]
        for (from, to) in allowed { #expect(from.canTransition(to: to), "\(from) → \(to)") }
    }

    @Test func aQueuedOrFailedMessageAnEarlierAttemptStoredIsConfirmedWithTheStatusItReachedMeanwhile() {
        // Its `sending` record was cut short, and the recipient read the copy the lost answer's attempt stored
        for from in [MessageStatus.queued, .failed] {
            for to in [MessageStatus.sent, .delivered, .read] { #expect(from.canTransition(to: to), "\(from) → \(to)") }
        }
    }

    @Test func statusNeverMovesBackwardsOtherwise() {
        let refused: [(MessageStatus, MessageStatus)] = [
            (.sent, .sending), (.sent, .queued), (.sent, .failed), (.delivered, .sent), (.read, .delivered),
            (.failed, .queued), (.read, .queued),
        ]
        for (from, to) in refused { #expect(!from.canTransition(to: to), "\(from) → \(to)") }
    }

    @Test func pendingMeansStillInTheOutbox() {
        #expect(MessageStatus.allCases.filter { $0.isPending } == [.queued, .sending, .failed])
    }
}

@Suite struct MessageTests {
    let start = Date(timeIntervalSince1970: 1_000)

    func message(_ id: String, at offset: TimeInterval, status: MessageStatus = .queued) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: "me", text: id, timestamp: start + offset,
            status: status)
    }

    @Test func composeOrderIsTimestampThenID() {
        let messages = [message("b", at: 1), message("c", at: 0), message("a", at: 1)]
        #expect(messages.sorted(by: Message.composeOrder).map(\.id.rawValue) == ["c", "a", "b"])
        #expect(message("a", at: 1).cursor < message("b", at: 1).cursor)
    }

    @Test func changingStatusFollowsTheTransitionsAndRecordsWhen() throws {
        let queued = message("a", at: 0)
        let sending = try queued.changingStatus(to: .sending, at: start + 5, attempts: nil, lastError: nil)
        #expect(sending.status == .sending && sending.statusUpdatedAt == start + 5 && sending.attempts == 0)
        let failed = try sending.changingStatus(to: .failed, at: start + 6, attempts: 1, lastError: .timeout)
        #expect(failed.attempts == 1 && failed.lastError == .timeout)
        #expect(throws: StoreError.invalidTransition(from: .failed, to: .queued)) {
            try failed.changingStatus(to: .queued, at: start, attempts: nil, lastError: nil)
        }
    }

    @Test func idsEncodeAsPlainStrings() throws {
        let data = try JSONEncoder().encode([MessageID("m1")])
        #expect(String(decoding: data, as: UTF8.self) == "[\"m1\"]")
        #expect(try JSONDecoder().decode([ConversationID].self, from: Data("[\"c7\"]".utf8)) == ["c7"])
    }
}
