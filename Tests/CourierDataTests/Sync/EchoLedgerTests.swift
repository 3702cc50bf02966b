import CourierDomain
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// The sync engine's ledger of this device's messages between their send's answer and their echo, alone.
@Suite struct EchoLedgerTests {
    private func mine(_ id: String, in conversation: ConversationID = "c2", at seconds: Double) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: "me", text: id,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: .sent)
    }

    @Test func anAnsweredMessageWaitsForItsEchoAndIsAnnouncedOnce() {
        // Given a message whose send was answered
        var ledger = EchoLedger(pendingAtLaunch: [])
        let sent = mine("m1", at: 10)
        ledger.answered(sent)

        // Then its echo is awaited where it stands, in its conversation only
        #expect(ledger.awaitsEcho("m1"))
        #expect(ledger.awaitsEcho(in: "c2") { $0 == sent.cursor })
        #expect(!ledger.awaitsEcho(in: "c1") { _ in true })

        // When its echo comes
        ledger.echoCame("m1")

        // Then nothing waits for it, and screens heard of it from the outbox once
        #expect(!ledger.awaitsEcho("m1"))
        let first = ledger.takeAnnouncement(of: "m1")
        let second = ledger.takeAnnouncement(of: "m1")
        #expect(first && !second)
    }

    @Test func aMessagePendingAtLaunchIsAnnouncedButItsEchoIsNotAwaited() {
        // Given a message pending when the engine was made (an earlier launch may have sent it)
        var ledger = EchoLedger(pendingAtLaunch: ["m1"])

        // When its send is answered in this launch
        ledger.answered(mine("m1", at: 10))

        // Then screens heard of it, but its answer says nothing of where its echo stands
        #expect(!ledger.awaitsEcho("m1"))
        let announced = ledger.takeAnnouncement(of: "m1")
        #expect(announced)
    }

    @Test func aStartOverForgetsEveryAwaitedEchoButNotTheAnnouncements() {
        // Given two answered messages in two conversations
        var ledger = EchoLedger(pendingAtLaunch: [])
        ledger.answered(mine("m1", at: 10))
        ledger.answered(mine("m2", in: "c1", at: 11))

        // When the engine starts over from a snapshot
        ledger.snapshotTaken()

        // Then no echo is awaited (the snapshot's pages carry them), and an echo still finds its announcement
        #expect(!ledger.awaitsEcho("m1") && !ledger.awaitsEcho("m2"))
        #expect(!ledger.awaitsEcho(in: "c2") { _ in true })
        let announced = ledger.takeAnnouncement(of: "m2")
        #expect(announced)
    }

    @Test func anEchoWithNoAnnouncementBeforeItIsNews() {
        // Given a ledger that heard of nothing (the message was sent by an earlier launch)
        var ledger = EchoLedger(pendingAtLaunch: [])

        // Then its echo finds no announcement
        let announced = ledger.takeAnnouncement(of: "m9")
        #expect(!announced)
    }
}
