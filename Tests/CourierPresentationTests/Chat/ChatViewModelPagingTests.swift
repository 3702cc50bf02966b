import CourierDomain
import CourierPresentation
import Foundation
import Testing

@MainActor
@Suite struct ChatViewModelPagingTests {
    let clock = ManualClock()
    let network = ManualConnectivity(online: true)
    let outbox: QueueFakeOutbox
    let history: [Message]
    let repository: ChatFakeRepository

    init() {
        outbox = QueueFakeOutbox(clock: clock, connectivity: network)
        // 60 messages, five and a half hours old, alternating between Ana and me.
        let start = clock.now.addingTimeInterval(-5.5 * 3_600)
        history = (0..<60).map { index in
            Message(
                id: MessageID(String(format: "h%02d", index)), conversationID: "c1",
                senderID: index.isMultiple(of: 2) ? "ana" : "me", text: "history \(index)",
                timestamp: start.addingTimeInterval(Double(index)), status: .read)
        }
        repository = ChatFakeRepository(clock: clock, latency: .seconds(1), history: history)
    }

    @Test func startShowsPendingMessagesAtOnceThenMergesTheNewestPage() async {
        // Given a queued draft in this chat and one in another chat
        let draft = outbox.seed("draft", in: "c1")
        outbox.seed("elsewhere", in: "c2")
        let model = makeModel()
        let recorder = StateRecorder(model)

        // When the chat starts and the page arrives
        model.start()
        await clock.advance(by: .seconds(1))

        // Then the draft showed at once, and the rows became the newest 50 of the page and the draft merged
        let draftRow = row(draft, time: "Now")
        #expect(
            recorder.states == [
                state([], hasMore: false),
                state([draftRow], hasMore: false, isLoading: true),
                state((11..<60).map { row(history[$0]) } + [draftRow], hasMore: true),
            ])
        #expect(repository.pageRequests == [nil])
    }

    @Test func olderPagesLoadOneAtATimeUntilTheStart() async {
        // Given a started chat showing the newest 50 of 60
        let model = makeModel()
        model.loadOlderMessages()
        #expect(repository.pageRequests.isEmpty)
        model.start()
        await clock.advance(by: .seconds(1))
        let recorder = StateRecorder(model)

        // When the user scrolls up twice quickly, then again at the start
        model.loadOlderMessages()
        model.loadOlderMessages()
        #expect(model.hasPendingWork)
        await clock.advance(by: .seconds(1))
        model.loadOlderMessages()

        // Then one request used the oldest loaded message as its cursor, and the last one did nothing
        let newest = (10..<60).map { row(history[$0]) }
        #expect(
            recorder.states == [
                state(newest, hasMore: true),
                state(newest, hasMore: true, isLoadingOlder: true),
                state(history.map { row($0) }, hasMore: false),
            ])
        #expect(repository.pageRequests == [nil, history[10].cursor])
        #expect(!model.hasPendingWork)
    }

    @Test func anUncachedChatOpenedOfflineSaysItLoadsOnceBackOnline() async {
        let failing = ChatFailingRepository()
        let model = makeModel(repository: failing)
        let recorder = StateRecorder(model)

        model.start()
        await clock.idle()

        #expect(
            recorder.states == [
                state([], hasMore: false),
                state([], hasMore: false, isLoading: true),
                state(
                    [], hasMore: false,
                    error: "You're offline. This conversation will load when you're back online."),
            ])
    }

    // MARK: - Helpers

    private func makeModel(repository: (any MessageRepository)? = nil) -> ChatViewModel {
        let banner = ConnectivityBannerViewModel(connectivity: network, outbox: outbox, clock: clock)
        return ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox,
            repository: repository ?? self.repository, connectivity: network, banner: banner, clock: clock)
    }

    private func row(_ message: Message, time: String = "5h ago") -> MessageRow {
        let mine = message.senderID == "me"
        let label = mine ? (message.status == .queued ? "Queued" : "Read") : ""
        return MessageRow(
            id: message.id, text: message.text, status: message.status, senderID: message.senderID,
            statusLabel: label, isOutgoing: mine, timeText: time, canRetry: false)
    }

    private func state(
        _ rows: [MessageRow], hasMore: Bool, isLoading: Bool = false, isLoadingOlder: Bool = false,
        error: String? = nil
    ) -> ChatViewModel.State {
        let waiting = outbox.pending.filter { $0.status == .queued || $0.status == .failed }.count
        return ChatViewModel.State(
            conversationID: "c1", title: "Ana", messages: rows, hasMore: hasMore, isLoading: isLoading,
            isLoadingOlder: isLoadingOlder, error: error, isOnline: true,
            banner: .init(visible: false, text: "", queuedCount: waiting, showsSendAll: false), toast: .hidden,
            connected: false)
    }
}

/// A backend that is unreachable.
private struct ChatFailingRepository: MessageRepository {
    func send(_ message: Message) async throws -> Message { throw DeliveryError.offline }
    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    { throw DeliveryError.offline }
}

@MainActor
@Suite struct ChatViewModelLifetimeTests {
    @Test func closingTheChatCancelsItsLoadAndTimers() async {
        // Given a chat whose first page is still loading, with a relative-time refresh pending
        let clock = ManualClock()
        let network = ManualConnectivity(online: true)
        let outbox = QueueFakeOutbox(clock: clock, connectivity: network)
        outbox.seed("draft")
        var model: ChatViewModel? = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox,
            repository: ChatFakeRepository(clock: clock), connectivity: network,
            banner: ConnectivityBannerViewModel(connectivity: network, outbox: outbox, clock: clock), clock: clock)
        model?.start()
        await clock.idle()
        #expect(clock.sleeperCount == 2)

        // When the screen goes away
        model = nil
        await clock.idle()

        // Then nothing of it waits on the clock any more
        #expect(clock.sleeperCount == 0)
    }
}
