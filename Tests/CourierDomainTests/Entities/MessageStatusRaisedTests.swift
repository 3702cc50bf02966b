import CourierDomain
import Testing

/// What a delivered or read receipt does to the status a sender sees on their own message.
@Suite("MessageStatus.raised(by:)")
struct MessageStatusRaisedTests {
    @Test("a sent message becomes delivered on a delivered receipt and read on a read one")
    func sentIsRaised() {
        #expect(MessageStatus.sent.raised(by: .delivered) == .delivered)
        #expect(MessageStatus.sent.raised(by: .read) == .read)
    }

    @Test("a delivered message becomes read on a read receipt and stays delivered on another delivered one")
    func deliveredIsRaisedToRead() {
        #expect(MessageStatus.delivered.raised(by: .read) == .read)
        #expect(MessageStatus.delivered.raised(by: .delivered) == .delivered)
    }

    @Test("a read message stays read: a delivered receipt arriving late never lowers it")
    func readIsNeverLowered() {
        #expect(MessageStatus.read.raised(by: .delivered) == .read)
        #expect(MessageStatus.read.raised(by: .read) == .read)
    }

    @Test("a message still in the outbox is untouched by any receipt", arguments: Receipt.Kind.allCases)
    func pendingIsUntouched(kind: Receipt.Kind) {
        // Given the statuses of a message the backend has not stored yet
        let pending: [MessageStatus] = [.queued, .sending, .failed]

        // When a receipt covers them, then nothing moves
        #expect(pending.map { $0.raised(by: kind) } == pending)
    }

    @Test("every raise is a transition the message lifecycle allows")
    func raisesAreAllowedTransitions() {
        for status in MessageStatus.allCases {
            for kind in Receipt.Kind.allCases {
                #expect(status.canTransition(to: status.raised(by: kind)), "\(status) by \(kind)")
            }
        }
    }
}
