import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// Every event changes the chat once (docs/design.md §5): what the outbox announces and what connectivity does reach
/// the chat by one path — its banner, which hands over each event with what it did to the banner — and show as one
/// state, rows and banner together. (Sending, failing, Retry and Delete are in `ChatViewModelTests`, arrivals and
/// receipts in `ChatViewModelSyncTests`, with their whole histories.)
@MainActor
@Suite struct ChatViewModelOneStateTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test func deleteAndCancelLeaveTheRowsToTheOutboxsDeletedEvent() async throws {
        // Given a failed and a queued message, and an outbox that announces a deletion only after it is made
        let failed = outbox.seed("broken", status: .failed, lastError: .validation(reason: "bad"))
        let queued = outbox.seed("later")
        let model = await openChat()
        outbox.holdsEvents = true
        let recorder = StateRecorder(model)

        // When the user deletes the failed one, and later the outbox announces it; then the same for the queued one,
        // cancelled from its sheet
        try model.delete(messageID: failed.id)
        let beforeTheFirstEvent = recorder.states.count
        outbox.releaseHeldEvents()
        try model.tapMessage(messageID: queued.id)
        try model.chooseAlertAction(.cancel)
        let beforeTheSecondEvent = recorder.states.count
        outbox.releaseHeldEvents()

        // Then nothing left the screen until the outbox said so; then each deletion took its row (and the sheet)
        // and the banner's count away together, in one state
        let rows = [mine(failed.id, "broken", .failed), mine(queued.id, "later", .queued)]
        let sheet = ChatViewModel.MessageAlert(messageID: queued.id, kind: .queuedActions, wait: .user)
        #expect(outbox.deleteCalls == [failed.id, queued.id])
        #expect(beforeTheFirstEvent == 1)
        #expect(beforeTheSecondEvent == 3)
        #expect(
            recorder.states == [
                chatState(rows, waiting: 2),
                chatState([rows[1]], waiting: 1),
                chatState([rows[1]], waiting: 1, alert: sheet),
                chatState([], waiting: 0),
            ])
    }

    @Test func anEditFromTheOfflineQueueChangesTheRowInOneState() async throws {
        // Given a queued message shown in the chat and in the Offline Queue
        let draft = outbox.seed("draft")
        let model = await openChat()
        let queue = OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: { $0.rawValue })
        let recorder = StateRecorder(model)

        // When the user edits it in the queue
        try queue.edit(messageID: draft.id, text: "final words")

        // Then the chat's row shows the new text in one state
        #expect(
            recorder.states == [
                chatState([mine(draft.id, "draft", .queued)], waiting: 1),
                chatState([mine(draft.id, "final words", .queued)], waiting: 1),
            ])
    }

    @Test func aMessageComposedInAnotherChatMovesOnlyTheBannerInOneState() async throws {
        // Given this chat open offline, empty
        network.set(online: false)
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When a message is queued in another conversation
        try outbox.compose(text: "elsewhere", in: "c2")

        // Then the banner counts it, in one state, saying it is in another chat, and the rows stay as they were
        #expect(
            recorder.states == [
                chatState([], online: false, waiting: 0),
                chatState([], online: false, waiting: 1, elsewhere: "It is in another chat."),
            ])
    }

    @Test func eachConnectivityChangeIsOneChatState() async throws {
        // Given a chat opened online, then a message queued offline with its sheet open
        let model = await openChat()
        network.set(online: false)
        let id = try model.send(text: "later")
        try model.tapMessage(messageID: id)
        let recorder = StateRecorder(model)

        // When the device comes back online, then goes offline again
        network.set(online: true)
        network.set(online: false)

        // Then each change is one state: online, banner, toast, "Connected" and what the sheet says it waits for move
        // together
        let row = mine(id, "later", .queued)
        var online = chatState(
            [row], online: true, waiting: 1, connected: true,
            alert: .init(messageID: id, kind: .queuedActions, wait: .user))
        online.toast = .init(visible: true, text: "Connected. Auto-send 1 queued message?", queuedCount: 1)
        let offline = chatState(
            [row], online: false, waiting: 1, alert: .init(messageID: id, kind: .queuedActions, wait: .connection))
        #expect(recorder.states == [offline, online, offline])
    }
}
