import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct ChatViewModelTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    // MARK: - Sending

    @Test func sendingOnlineShowsSendingAtOnceThenSent() async throws {
        // Given an open, empty chat online
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When the user sends a message and the backend answers
        try model.send(text: "hi")
        await clock.advance(by: .seconds(1))

        // Then it showed as "Sending..." at once, then "Sent", in place
        let id = MessageID("m001")
        #expect(
            recorder.states == [
                chatState([]),
                chatState([mine(id, "hi", .sending)]),
                chatState([mine(id, "hi", .sent)]),
            ])
    }

    @Test func sendingOfflineQueuesTheMessageAndTheBannerCountsIt() async throws {
        // Given an open, empty chat offline
        network.set(online: false)
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When the user sends a message
        try model.send(text: "later")

        // Then its row and the banner's count show together, in one state (docs/design.md §5)
        let id = MessageID("m001")
        #expect(
            recorder.states == [
                chatState([], online: false, waiting: 0),
                chatState([mine(id, "later", .queued)], online: false, waiting: 1),
            ])
        #expect(model.state.banner.text == "You're offline. 1 message queued.")
        #expect(outbox.pending.map(\.status) == [.queued])
    }

    @Test func aFailedSendShowsItsLabelAndErrorUntilTheNextSendSucceeds() async throws {
        // Given a backend that refuses "boom"
        outbox.failures["boom"] = .server(code: 503)
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When "boom" fails and then "ok" goes through
        try model.send(text: "boom")
        await clock.advance(by: .seconds(1))
        try model.send(text: "ok")
        await clock.advance(by: .seconds(1))

        // Then the failed message stays with "Failed - Tap to retry" and Retry/Delete, the error text shows, and the
        // next successful send clears it
        let boom = MessageID("m001")
        let okID = MessageID("m002")
        let error = "Failed to send message. Please try again."
        #expect(
            recorder.states == [
                chatState([]),
                chatState([mine(boom, "boom", .sending)]),
                chatState([mine(boom, "boom", .failed)], error: error, waiting: 1),
                chatState([mine(boom, "boom", .failed), mine(okID, "ok", .sending)], error: error, waiting: 1),
                chatState([mine(boom, "boom", .failed), mine(okID, "ok", .sent)], waiting: 1),
            ])
        #expect(model.state.messages[0].canRetry)
        #expect(model.state.failedMessageIDs == [boom])
    }

    @Test func aTimeoutShowsStory24sTimeoutText() async throws {
        outbox.failures["slow"] = .timeout
        let model = await openChat()

        try model.send(text: "slow")
        await clock.advance(by: .seconds(1))

        #expect(model.state.error == "The connection timed out. Please try again.")
    }

    @Test func blankTextIsRefusedByTheOutboxAndChangesNothing() async {
        let model = await openChat()
        let recorder = StateRecorder(model)

        #expect(throws: InputError.emptyText) { try model.send(text: "  \n ") }
        #expect(throws: InputError.emptyText) { try model.send(text: "") }

        #expect(recorder.states == [chatState([])])
        #expect(outbox.pending.isEmpty)
    }

    @Test func oversizedTextIsRefusedAndChangesNothing() async {
        outbox.textLimit = 10
        let model = await openChat()
        let recorder = StateRecorder(model)

        #expect(throws: InputError.textTooLong(characters: 11, limit: 10)) {
            try model.send(text: String(repeating: "x", count: 11))
        }

        #expect(recorder.states == [chatState([])])
        #expect(outbox.pending.isEmpty)
    }

    // MARK: - Retry and Delete

    @Test func retrySendsTheFailedMessageAgain() async throws {
        // Given a failed message
        let (model, id) = try await openChatWithFailedMessage(.offline)
        let recorder = StateRecorder(model)

        // When the user taps Retry and the backend takes it
        try model.retry(messageID: id)
        #expect(await clock.run(until: { !model.hasPendingWork }))

        // Then it goes sending (the banner's count with it, and the error: nothing is failed any more), then sent,
        // once each
        let error = "No internet connection. Message will be saved and you can retry later."
        #expect(outbox.sendCalls == [id])
        #expect(
            recorder.states == [
                chatState([mine(id, "flaky", .failed)], error: error, waiting: 1),
                chatState([mine(id, "flaky", .sending)], waiting: 0),
                chatState([mine(id, "flaky", .sent)], waiting: 0),
            ])
    }

    @Test func tappingAFailedMessageShowsTheAlertAndRetryTakesItAway() async throws {
        // Given a failed message
        let (model, id) = try await openChatWithFailedMessage(.server(code: 503))
        let recorder = StateRecorder(model)

        // When the user taps it, then Retry
        try model.tapMessage(messageID: id)
        let alert = try #require(model.state.alert)
        #expect(alert.title == "Message Failed")
        #expect(alert.message == "This message failed to send. Would you like to retry or delete it?")
        #expect(alert.actions == ["Retry", "Delete", "Cancel"])
        try model.retry(messageID: id)
        #expect(await clock.run(until: { !model.hasPendingWork }))

        // Then the alert showed, and went as the message left `failed` — with the error text — in the state that
        // shows it sending
        let error = "Failed to send message. Please try again."
        #expect(
            recorder.states == [
                chatState([mine(id, "flaky", .failed)], error: error, waiting: 1),
                chatState([mine(id, "flaky", .failed)], error: error, waiting: 1, alert: .init(messageID: id)),
                chatState([mine(id, "flaky", .sending)], waiting: 0),
                chatState([mine(id, "flaky", .sent)], waiting: 0),
            ])
    }

    @Test func cancelDismissesTheAlertAndOnlyFailedMessagesShowOne() async throws {
        outbox.failures["bad"] = .validation(reason: "x")
        let model = await openChat()
        try model.send(text: "bad")
        try model.send(text: "good")
        await clock.advance(by: .seconds(1))
        let (bad, good) = (MessageID("m001"), MessageID("m002"))
        #expect(throws: PresentationError.wrongStatus(good, .sent)) { try model.tapMessage(messageID: good) }
        #expect(model.state.alert == nil)
        try model.tapMessage(messageID: bad)
        #expect(model.state.alert?.messageID == bad)
        model.dismissAlert()
        #expect(model.state.alert == nil)
        #expect(model.state.failedMessageIDs == [bad], "Cancel leaves the message failed")
    }

    @Test func retryAndDeleteRefuseMessagesThatAreNotFailed() async throws {
        let model = await openChat()
        try model.send(text: "fine")
        let id = MessageID("m001")
        let recorder = StateRecorder(model)

        #expect(throws: PresentationError.wrongStatus(id, .sending)) { try model.retry(messageID: id) }
        #expect(throws: PresentationError.wrongStatus(id, .sending)) { try model.delete(messageID: id) }
        let unknown = MessageID("nope")
        #expect(throws: InputError.unknownMessage(unknown)) { try model.retry(messageID: unknown) }

        #expect(recorder.states.count == 1)
        #expect(outbox.sendCalls.isEmpty && outbox.deleteCalls.isEmpty)
        #expect(!model.hasPendingWork)
    }

    @Test func deleteRemovesTheFailedMessage() async throws {
        // Given a failed message in the chat
        let failed = outbox.seed("broken", status: .failed, lastError: .validation(reason: "bad"))
        let model = await openChat()
        let recorder = StateRecorder(model)

        // When the user deletes it
        try model.delete(messageID: failed.id)

        // Then the outbox deletes it once, and its deleted event takes the row and the banner's count away together
        #expect(outbox.deleteCalls == [failed.id])
        #expect(
            recorder.states == [
                chatState([mine(failed.id, "broken", .failed, time: "Now")], waiting: 1),
                chatState([], waiting: 0),
            ])
    }

    @Test func aSendErrorEndsWhenNoMessageIsFailedAnyMore() async throws {
        // Given a chat whose message failed, its error showing
        let (model, id) = try await openChatWithFailedMessage(.server(code: 503))
        let error = "Failed to send message. Please try again."
        #expect(model.state.error == error)
        let recorder = StateRecorder(model)

        // When the user deletes it, then the row and the error go in one state
        try model.delete(messageID: id)
        #expect(recorder.states == [chatState([mine(id, "flaky", .failed)], error: error, waiting: 1), chatState([])])
    }

    @Test func aSendErrorStaysWhileAnotherMessageIsStillFailed() async throws {
        // Given two failed messages, the error showing
        outbox.failures["one"] = .server(code: 503)
        outbox.failures["two"] = .server(code: 503)
        let model = await openChat()
        try model.send(text: "one")
        try model.send(text: "two")
        await clock.advance(by: .seconds(1))
        #expect(model.state.failedMessageIDs.count == 2)

        // When one is deleted, then the error stays: the other is still failed
        try model.delete(messageID: model.state.failedMessageIDs[0])
        #expect(model.state.error == "Failed to send message. Please try again.")
    }

    // MARK: - Following the outbox

    @Test("a failed copy the user deletes, of a message the backend had stored, leaves the stored message's row")
    func deletingAFailedCopyOfAStoredMessageShowsTheStoredOne() async throws {
        // Given a chat showing my message as the backend stored it (a page brought it sent), then the outbox's
        // failed copy of it (the send's answer was lost, and the retry failed)
        let model = await openChat()
        let stored = Message(
            id: MessageID("lost-answer"), conversationID: "c1", senderID: "me", text: "hello", timestamp: clock.now,
            status: .sent)
        outbox.announce(.changed(stored))
        var failed = stored
        failed.status = .failed
        failed.lastError = .server(code: 503)
        outbox.announce(.changed(failed))
        #expect(model.state.messages.map(\.status) == [.failed])

        // When the user deletes the failed copy
        outbox.announce(.deleted(stored.id))

        // Then the row shows the stored message, sent, and no send error (seed 72984)
        #expect(model.state.messages.map(\.id) == [stored.id])
        #expect(model.state.messages.map(\.status) == [.sent])
        #expect(model.state.failedMessageIDs.isEmpty)
        #expect(model.state.error == nil)
    }

    @Test func receiptsUpdateTheStatusInPlaceAndDeletionsRemove() async throws {
        let model = await openChat()
        try model.send(text: "hello")
        await clock.advance(by: .seconds(1))
        let sent = try #require(outbox.delivered.first)
        let recorder = StateRecorder(model)

        var receipt = sent
        receipt.status = .delivered
        outbox.announce(.changed(receipt))
        receipt.status = .read
        outbox.announce(.changed(receipt))
        outbox.announce(
            .changed(
                Message(
                    id: MessageID("other"), conversationID: "c2", senderID: "me", text: "elsewhere",
                    timestamp: clock.now,
                    status: .sent)))
        outbox.announce(.deleted(sent.id))

        #expect(
            recorder.states == [
                chatState([mine(sent.id, "hello", .sent)]),
                chatState([mine(sent.id, "hello", .delivered)]),
                chatState([mine(sent.id, "hello", .read)]),
                chatState([]),
            ])
    }

    @Test func theToastIsAnsweredFromTheChat() async throws {
        network.set(online: false)
        outbox.seed("a")
        let model = await openChat()
        network.set(online: true)
        #expect(model.state.toast.text == "Connected. Auto-send 1 queued message?")

        try model.acceptToast()
        #expect(model.hasPendingWork)
        #expect(await clock.run(until: { !model.hasPendingWork }))

        #expect(outbox.sendAllCalls == 1)
        #expect(model.state.toast == .hidden)
        #expect(model.state.messages.map(\.status) == [.sent])
        #expect(throws: PresentationError.noToastShowing) { try model.dismissToast() }
    }

    @Test func sendAllSendsInComposeOrder() async throws {
        network.set(online: false)
        let model = await openChat()
        try model.send(text: "one")
        try model.send(text: "two")
        network.set(online: true)

        model.sendAll()
        #expect(await clock.run(until: { !model.hasPendingWork }))

        #expect(outbox.sendAllCalls == 1)
        #expect(outbox.delivered.map(\.text) == ["one", "two"])
        #expect(model.state.messages.map(\.statusLabel) == ["Sent", "Sent"])
    }

    // MARK: - Helpers

    /// An open chat whose message "flaky" (`m001`) failed with `error`; the backend takes messages again.
    private func openChatWithFailedMessage(_ error: DeliveryError) async throws -> (ChatViewModel, MessageID) {
        outbox.failures["flaky"] = error
        let model = await openChat()
        try model.send(text: "flaky")
        await clock.advance(by: .seconds(1))
        outbox.failures = [:]
        return (model, MessageID("m001"))
    }
}
