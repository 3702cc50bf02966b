import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The queued message's action sheet, the failed message's alert through its buttons, Retry offline, and a chat
/// opened offline with nothing cached.
@MainActor
@Suite struct ChatViewModelAlertTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    // MARK: - The queued message's action sheet

    @Test func infoExplainsTheQueuedMessageAndOKClosesIt() async throws {
        // Given a message composed offline
        let model = await openChat()
        try model.send(text: "later")
        let id = MessageID("m001")
        let recorder = StateRecorder(model)

        // When the user taps it, chooses Info, then OK
        try model.tapMessage(messageID: id)
        try model.chooseAlertAction("info")
        try model.chooseAlertAction("OK")

        // Then the sheet offered Cancel, Info and Dismiss, Info explained, OK closed it, and the message stays queued
        let row = mine(id, "later", .queued)
        #expect(
            recorder.states == [
                chatState([row], waiting: 1),
                chatState([row], waiting: 1, alert: .init(messageID: id, kind: .queuedActions)),
                chatState([row], waiting: 1, alert: .init(messageID: id, kind: .queuedInfo)),
                chatState([row], waiting: 1),
            ])
        let sheet = ChatViewModel.MessageAlert(messageID: id, kind: .queuedActions)
        #expect(sheet.actions == ["Cancel", "Info", "Dismiss"])
        let info = ChatViewModel.MessageAlert(messageID: id, kind: .queuedInfo)
        #expect(info.message == "This message will send automatically when you're back online")
        #expect(info.actions == ["OK"])
        #expect(outbox.deleteCalls.isEmpty && outbox.sendCalls.isEmpty)
    }

    @Test func cancelRemovesTheQueuedMessageFromQueueAndChatForGood() async throws {
        // Given two messages composed offline
        let model = await openChat()
        try model.send(text: "keep")
        try model.send(text: "drop")
        let (keep, drop) = (MessageID("m001"), MessageID("m002"))
        let recorder = StateRecorder(model)

        // When the user taps the second, chooses Cancel, and the device comes back online and sends the queue
        try model.tapMessage(messageID: drop)
        try model.chooseAlertAction("Cancel")
        network.set(online: true)
        model.sendAll()
        #expect(await clock.run(until: { !model.hasPendingWork }))

        // Then it left the chat, the sheet and the banner's count at once, in one state, and the outbox; only the
        // other one was sent
        #expect(outbox.deleteCalls == [drop])
        #expect(outbox.delivered.map(\.text) == ["keep"])
        #expect(
            Array(recorder.states.prefix(3)) == [
                chatState([mine(keep, "keep", .queued), mine(drop, "drop", .queued)], online: false, waiting: 2),
                chatState(
                    [mine(keep, "keep", .queued), mine(drop, "drop", .queued)], online: false, waiting: 2,
                    alert: .init(messageID: drop, kind: .queuedActions)),
                chatState([mine(keep, "keep", .queued)], online: false, waiting: 1),
            ])
    }

    @Test func dismissClosesTheSheetAndUnknownLabelsOrNoSheetAreRefused() async throws {
        let model = await openChat()
        try model.send(text: "later")
        let id = MessageID("m001")
        #expect(throws: PresentationError.noAlertShowing) { try model.chooseAlertAction("Info") }
        try model.tapMessage(messageID: id)
        let recorder = StateRecorder(model)

        #expect(throws: PresentationError.unknownAction("Retry", available: ["Cancel", "Info", "Dismiss"])) {
            try model.chooseAlertAction("Retry")
        }
        try model.chooseAlertAction("DISMISS")

        #expect(
            recorder.states == [
                chatState([mine(id, "later", .queued)], waiting: 1, alert: .init(messageID: id, kind: .queuedActions)),
                chatState([mine(id, "later", .queued)], waiting: 1),
            ])
        #expect(outbox.deleteCalls.isEmpty)
    }

    // MARK: - Retry

    @Test func retryWhileOfflineSaysNoInternetAndSendsNothing() async throws {
        // Given a failed message, offline
        let failed = outbox.seed("stuck", status: .failed, lastError: .server(code: 500))
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When the user taps it and chooses Retry
        try model.tapMessage(messageID: failed.id)
        try model.chooseAlertAction("Retry")

        // Then nothing is sent, the message stays failed and the alert stays until dismissed, with the offline retry text
        let row = mine(failed.id, "stuck", .failed)
        let alert = ChatViewModel.MessageAlert(messageID: failed.id)
        #expect(
            recorder.states == [
                chatState([row], waiting: 1),
                chatState([row], waiting: 1, alert: alert),
                chatState(
                    [row], error: "No internet connection. Message will be saved and you can retry later.",
                    waiting: 1, alert: alert),
            ])
        #expect(outbox.sendCalls.isEmpty)
    }

    @Test func deletingAFailedMessageLeavesTheSheetOpenOnAQueuedOne() async throws {
        // Given a failed message and a queued one, offline, the queued one's action sheet open
        let failed = outbox.seed("stuck", status: .failed, lastError: .server(code: 500))
        let model = await openChat()
        try model.send(text: "later")
        let queued = try #require(model.state.messages.last?.id)
        try model.tapMessage(messageID: queued)
        let recorder = StateRecorder(model)

        // When the failed message is deleted (its own row's action, not the sheet's)
        try model.delete(messageID: failed.id)

        // Then its row goes and the sheet stays open on the queued message it is about
        let sheet = ChatViewModel.MessageAlert(messageID: queued, kind: .queuedActions)
        #expect(
            recorder.states == [
                chatState(
                    [mine(failed.id, "stuck", .failed), mine(queued, "later", .queued)], waiting: 2, alert: sheet),
                chatState([mine(queued, "later", .queued)], waiting: 1, alert: sheet),
            ])
    }

    // MARK: - Opening offline

    @Test func anUncachedChatOpenedOfflineLoadsOnceBackOnline() async throws {
        // Given a backend reachable only online, holding one message
        let history = [
            Message(
                id: "h1", conversationID: "c1", senderID: "ana", text: "hello", timestamp: clock.now,
                status: .read)
        ]
        let repository = backend(history, reachable: network)
        let model = makeChat(repository: repository)
        let recorder = StateRecorder(model)

        // When the chat opens offline, then the device comes back online
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        network.set(online: true)
        _ = await clock.run(until: { !model.hasPendingWork })

        // Then it says it will load (not a send failure), and loads by itself on reconnect
        let offlineText = "You're offline. This conversation will load when you're back online."
        let incoming = MessageRow(
            id: "h1", text: "hello", status: .read, senderID: "ana", statusLabel: "", isOutgoing: false,
            timeText: "Now", canRetry: false)
        #expect(
            recorder.states == [
                chatState([], online: false),
                chatState([], isLoading: true, online: false),
                chatState([], hasMore: true, error: offlineText, online: false),
                // One change, one state: online, the offline text gone and the load started together
                chatState([], hasMore: true, isLoading: true, online: true, connected: true),
                chatState([incoming], online: true, connected: true),
            ])
    }
}

/// A queued message's sheet tells the truth in every state: offline it waits for a connection; online under the
/// manual policy it waits for the user, and offers Send Now; the open sheet follows connectivity as it changes.
@MainActor
@Suite struct ChatViewModelQueuedSheetTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    @Test func onlineUnderTheManualPolicyTheSheetSaysItWaitsForTheUserAndSendNowSendsIt() async throws {
        // Given a message composed offline, its sheet open
        let model = await openChat()
        try model.send(text: "later")
        let id = MessageID("m001")
        try model.tapMessage(messageID: id)
        let recorder = StateRecorder(model)

        // When the device comes back (the toast is left unanswered), the user opens Info, then Send Now
        network.set(online: true)
        try model.chooseAlertAction("Info")
        try model.chooseAlertAction("Send Now")
        _ = await clock.run(until: { !model.hasPendingWork })

        // Then the open sheet changed its words with the connection, in the same state as the banner, Info said
        // the message waits for the user, and Send Now sent it, once
        let waiting = ChatViewModel.MessageAlert(messageID: id, kind: .queuedActions, wait: .user)
        let info = ChatViewModel.MessageAlert(messageID: id, kind: .queuedInfo, wait: .user)
        #expect(waiting.message == "This message is waiting for you to send it.")
        #expect(waiting.actions == ["Send Now", "Cancel", "Info", "Dismiss"])
        #expect(info.message.hasPrefix("You're online. Queued messages wait until you send them"))
        #expect(info.actions == ["Send Now", "OK"])
        let states = recorder.states
        #expect(states.first?.alert == .init(messageID: id, kind: .queuedActions))
        #expect(states.dropFirst().first?.alert == waiting && states.dropFirst().first?.isOnline == true)
        #expect(states.contains { $0.alert == info })
        #expect(states.last?.alert == nil && states.last?.messages.last?.status == .sent)
        #expect(outbox.sendCalls == [id])
    }

    @Test func underTheAutomaticPolicyOnlineTheSheetSaysItIsAboutToSend() throws {
        let alert = ChatViewModel.MessageAlert(messageID: "m1", kind: .queuedActions, wait: .policy)
        #expect(alert.message == "This message is about to send.")
        #expect(
            ChatViewModel.MessageAlert(messageID: "m1", kind: .queuedActions).message
                == "This message is waiting for a connection.")
        #expect(ChatViewModel.MessageAlert(messageID: "m1", wait: .user).actions == ["Retry", "Delete", "Cancel"])
    }
}
