import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct ChatViewModelPagingTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)
    let history: [Message]
    let repository: ChatFakeRepository

    init() {
        // 60 messages, five and a half hours old, alternating between Ana and me.
        history = ChatFixture.history(from: screen.clock.now.addingTimeInterval(-5.5 * 3_600))
        repository = ChatFakeRepository(clock: screen.clock, latency: .seconds(1), history: history)
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
        let draftRow = historyRow(draft, time: "Now")
        #expect(
            recorder.states == [
                chatState([], waiting: 2),
                chatState([draftRow], isLoading: true, waiting: 2),
                chatState((11..<60).map { historyRow(history[$0]) } + [draftRow], hasMore: true, waiting: 2),
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
        let newest = (10..<60).map { historyRow(history[$0]) }
        #expect(
            recorder.states == [
                chatState(newest, hasMore: true),
                chatState(newest, hasMore: true, isLoadingOlder: true),
                chatState(history.map { historyRow($0) }, hasMore: false),
            ])
        #expect(repository.pageRequests == [nil, history[10].cursor])
        #expect(!model.hasPendingWork)
    }

    @Test func anUncachedChatOpenedOfflineSaysItLoadsOnceBackOnline() async {
        let failing = ChatFakeRepository.unreachable(clock: clock)
        let model = makeModel(repository: failing)
        let recorder = StateRecorder(model)

        model.start()
        await clock.idle()

        #expect(
            recorder.states == [
                chatState([], hasMore: false),
                chatState([], hasMore: false, isLoading: true),
                chatState(
                    [], hasMore: false,
                    error: "You're offline. This conversation will load when you're back online."),
            ])
    }

    // MARK: - Helpers

    private func makeModel(repository: (any MessageRepository)? = nil) -> ChatViewModel {
        makeChat(repository: repository ?? self.repository)
    }
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
