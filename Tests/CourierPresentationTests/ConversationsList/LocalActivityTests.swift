import CourierDomain
import Foundation
import Testing

@testable import CourierPresentation

/// What only this device knows of the list's rows, alone: the preview of a message composed here, the open chat's
/// unread count, and a conversation deleted here and brought back.
@Suite struct LocalActivityTests {
    private func message(
        _ id: String, in conversation: ConversationID = "c1", from sender: UserID = "me", at seconds: Double,
        status: MessageStatus = .queued
    ) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: sender, text: id,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: status)
    }

    /// c1 as the sync holds it: Ana's m1 at 10 s, two unread.
    private func row() -> Conversation {
        Conversation(
            id: "c1", participantIDs: ["me", "ana"], lastMessage: message("m1", from: "ana", at: 10, status: .sent),
            lastActivity: Date(timeIntervalSinceReferenceDate: 10), unreadCount: 2)
    }

    @Test func aMessageComposedHerePreviewsItsRowWhileTheRowHasNothingNewer() {
        // Given a message composed here after the row's last one
        var local = LocalActivity()
        let composed = local.compose(message("m2", at: 20))

        // Then the row previews it, active when it was composed
        #expect(composed)
        #expect(local.shown(row()).lastMessage?.id == "m2")
        #expect(local.shown(row()).lastActivity == Date(timeIntervalSinceReferenceDate: 20))

        // When the sync's row has a newer message, the row shows its own
        var newer = row()
        newer.lastMessage = message("m3", from: "ana", at: 30, status: .sent)
        newer.lastActivity = Date(timeIntervalSinceReferenceDate: 30)
        #expect(local.shown(newer) == newer)
    }

    @Test func anEarlierComposedMessageDoesNotReplaceALaterOne() {
        var local = LocalActivity()
        _ = local.compose(message("m3", at: 30))

        // When the outbox announces an earlier message of the conversation, and then the later one again
        let earlier = local.compose(message("m2", at: 20))
        let again = local.compose(message("m3", at: 30, status: .sending))

        // Then the later one stays the preview, in its new status
        #expect(!earlier && again)
        #expect(local.composed["c1"]?.status == .sending)
    }

    @Test func theOpenChatsRowShowsNothingUnread() {
        var local = LocalActivity()
        local.openConversation = "c1"

        #expect(local.shown(row()).unreadCount == 0)
        local.openConversation = nil
        #expect(local.shown(row()).unreadCount == 2)
    }

    @Test func aDeletedComposedMessageLeavesThePreviewToTheNextPendingOne() {
        var local = LocalActivity()
        _ = local.compose(message("m2", at: 20))

        // When a message nobody previews is deleted, nothing changes
        #expect(local.composedDeleted("m9", nextPending: { _ in nil }) == nil)

        // When the previewed one is deleted, the conversation's next pending message previews it
        let next = message("m1b", at: 15)
        let changed = local.composedDeleted("m2", nextPending: { $0 == "c1" ? next : nil })
        #expect(changed == "c1")
        #expect(local.composed["c1"] == next)
    }

    @Test func aDeletedConversationComesBackWithItsRowForAMessageThatReachedTheBackend() {
        // Given c1 deleted here, its row kept, its composed message forgotten
        var local = LocalActivity()
        _ = local.compose(message("m2", at: 20))
        local.deleted.insert("c1")
        local.forget("c1", row: row())
        #expect(local.composed["c1"] == nil)

        // When a message of mine still pending comes into it, it stays deleted
        #expect(local.revive(by: message("m3", at: 30), currentUser: "me") == nil)
        #expect(local.deleted.contains("c1"))

        // When someone else's message comes, it is back, with its row as it was, once
        #expect(local.revive(by: message("m4", from: "ana", at: 40, status: .sent), currentUser: "me") == row())
        #expect(!local.deleted.contains("c1"))
        #expect(local.revive(by: message("m5", from: "ana", at: 50, status: .sent), currentUser: "me") == nil)
    }
}
