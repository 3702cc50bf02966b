import CourierDomain
import CourierPresentation
import Foundation
import Testing

/// The queued message's action sheet, the failed message's alert through its buttons, Retry offline, and a chat
/// opened offline with nothing cached.
@MainActor
@Suite struct ChatViewModelAlertTests {
    let clock = ManualClock()
    let network = ManualConnectivity(online: false)
    let outbox: QueueFakeOutbox

    init() { outbox = QueueFakeOutbox(clock: clock, connectivity: network) }

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
        let row = queued(id, "later")
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

        // Then it left the chat and the outbox at once, and only the other one was sent
        #expect(outbox.deleteCalls == [drop])
        #expect(outbox.delivered.map(\.text) == ["keep"])
        #expect(
            Array(recorder.states.prefix(4)) == [
                chatState([queued(keep, "keep"), queued(drop, "drop")], online: false, waiting: 2),
                chatState(
                    [queued(keep, "keep"), queued(drop, "drop")], online: false, waiting: 2,
                    alert: .init(messageID: drop, kind: .queuedActions)),
                chatState(
                    [queued(keep, "keep"), queued(drop, "drop")], online: false, waiting: 1,
                    alert: .init(messageID: drop, kind: .queuedActions)),
                chatState([queued(keep, "keep")], online: false, waiting: 1),
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
                chatState([queued(id, "later")], waiting: 1, alert: .init(messageID: id, kind: .queuedActions)),
                chatState([queued(id, "later")], waiting: 1),
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
        let row = failedRow(failed.id, "stuck")
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

    // MARK: - Opening offline

    @Test func anUncachedChatOpenedOfflineLoadsOnceBackOnline() async throws {
        // Given a backend reachable only online, holding one message
        let history = [
            Message(
                id: "h1", conversationID: "c1", senderID: "ana", text: "hello", timestamp: clock.now,
                status: .read)
        ]
        let repository = ConnectivityGatedRepository(
            base: ChatFakeRepository(clock: clock, history: history), network: network)
        let model = makeModel(repository: repository)
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
                chatState([], online: false, isLoading: true),
                chatState([], error: offlineText, online: false),
                // One change, one state: online, the offline text gone and the load started together
                chatState([], online: true, isLoading: true, connected: true),
                chatState([incoming], online: true, connected: true),
            ])
    }

    // MARK: - Helpers

    private func makeModel(repository: any MessageRepository) -> ChatViewModel {
        let banner = ConnectivityBannerViewModel(connectivity: network, outbox: outbox, clock: clock)
        return ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox, repository: repository,
            connectivity: network, banner: banner, clock: clock)
    }

    private func openChat() async -> ChatViewModel {
        let model = makeModel(repository: ChatFakeRepository(clock: clock))
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        return model
    }

    private func chatState(
        _ rows: [MessageRow], error: String? = nil, online: Bool? = nil, waiting: Int = 0, isLoading: Bool = false,
        connected: Bool = false, alert: ChatViewModel.MessageAlert? = nil
    ) -> ChatViewModel.State {
        let online = online ?? network.isOnline
        let offlineText = waiting == 0
            ? "You're offline. Messages will send when reconnected."
            : "You're offline. \(waiting) \(waiting == 1 ? "message" : "messages") queued."
        return ChatViewModel.State(
            conversationID: "c1", title: "Ana", messages: rows, isLoading: isLoading, error: error, isOnline: online,
            banner: .init(
                visible: !online, text: online ? "" : offlineText, queuedCount: waiting,
                showsSendAll: !online && waiting > 0),
            toast: .hidden, connected: connected,
            failedMessageIDs: rows.filter { $0.status == .failed }.map(\.id), alert: alert)
    }

    private func queued(_ id: MessageID, _ text: String) -> MessageRow {
        MessageRow(
            id: id, text: text, status: .queued, senderID: "me", statusLabel: "Queued", isOutgoing: true,
            timeText: "Now", canRetry: false)
    }

    private func failedRow(_ id: MessageID, _ text: String) -> MessageRow {
        MessageRow(
            id: id, text: text, status: .failed, senderID: "me", statusLabel: "Failed - Tap to retry",
            isOutgoing: true, timeText: "Now", canRetry: true)
    }
}

/// A backend reached only while `network` is online: offline, every call fails with `.offline` at once.
private struct ConnectivityGatedRepository: MessageRepository {
    let base: ChatFakeRepository
    let network: ManualConnectivity

    func send(_ message: Message) async throws -> Message { try await base.send(message) }

    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    {
        guard await network.isOnline else { throw DeliveryError.offline }
        return try await base.messages(in: conversation, before: cursor, limit: limit)
    }
}
