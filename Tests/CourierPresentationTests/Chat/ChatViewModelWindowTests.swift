import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The chat's rows are a window over its timeline: the newest page on opening, a page more per
/// `loadOlderMessages()`, whatever the conversation's queue holds.
@MainActor
@Suite struct ChatViewModelWindowTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)
    let history: [Message]
    let queued: [Message]
    let repository: FakeMessageRepository

    init() {
        // 60 messages of history, five and a half hours old, then 120 queued in the last 12 seconds.
        history = ChatFixture.history(from: screen.clock.now.addingTimeInterval(-5.5 * 3_600))
        let outbox = screen.outbox
        queued = (0..<120).map { index in outbox.seed("queued \(index)", ageSeconds: Double(120 - index) / 10) }
        repository = screen.backend(history)
    }

    @Test func openingShowsTheNewestPageAndEachMoreAPageMoreQueueFirst() async {
        // Given a chat holding 120 queued messages and 60 on the server
        let model = makeModel()
        let recorder = StateRecorder(model)

        // When it opens and its page arrives, then the user asks for older messages three times
        model.start()
        await clock.advance(by: .seconds(1))
        model.loadOlderMessages()
        model.loadOlderMessages()
        model.loadOlderMessages()
        await clock.advance(by: .seconds(1))

        // Then it shows 50, 100, then all 120 queued below the newest 30 of history, then the rest of the history
        let pending = queued.map { historyRow($0) }
        let loaded = (10..<60).map { historyRow(history[$0]) }
        #expect(
            recorder.states == [
                state([], hasMore: false),
                state(Array(pending[70...]), hasMore: true, isLoading: true),
                state(Array(pending[70...]), hasMore: true),
                state(Array(pending[20...]), hasMore: true),
                state(Array(loaded[20...]) + pending, hasMore: true),
                state(loaded + pending, hasMore: true, isLoadingOlder: true),
                state(history.map { historyRow($0) } + pending, hasMore: false),
            ])
        #expect(repository.pageRequests == [nil, history[10].cursor])
    }

    @Test func aSendWhileWindowedAppendsAtTheBottom() async throws {
        // Given the chat open on the newest 50 of its 120 queued
        let model = makeModel()
        model.start()
        await clock.advance(by: .seconds(1))
        let recorder = StateRecorder(model)

        network.set(online: false)
        let before = recorder.states

        // When the user sends a message offline
        let id = try model.send(text: "latest")

        // Then the banner counts it as it joins the 50 rows at the bottom, in one state: the window keeps its top
        let latest = MessageRow(
            id: id, text: "latest", status: .queued, senderID: "me", statusLabel: "Queued", isOutgoing: true,
            timeText: "Now", canRetry: false)
        let rows = Array(queued[70...].map { historyRow($0) })
        let after = recorder.states.dropFirst(before.count)
        #expect(before.map(\.messages) == [rows, rows])
        #expect(after.map(\.banner.queuedCount) == [121])
        #expect(after.map(\.messages) == [rows + [latest]])
        #expect(recorder.states.last?.hasMore == true)
    }

    @Test func changesAboveTheWindowEmitNothingAndShowOnceScrolledTo() async throws {
        // Given the chat open on the newest 50 of its 120 queued
        let model = makeModel()
        model.start()
        await clock.advance(by: .seconds(1))
        let recorder = StateRecorder(model)

        // When the oldest queued message (above the window) changes and another is deleted
        var failed = queued[0]
        failed.status = .failed
        outbox.announce(.changed(failed))
        #expect(recorder.states.count == 1)
        try outbox.delete(queued[1].id)

        // Then the screen shows nothing new but the banner's count
        #expect(recorder.states.map(\.banner.queuedCount) == [120, 119])
        #expect(recorder.states.map(\.messages) == [Array(queued[70...].map { historyRow($0) })].flatMap { [$0, $0] })

        // And when the user scrolls up to them, the deleted one is gone
        model.loadOlderMessages()
        model.loadOlderMessages()
        let ids = recorder.states.last?.messages.map(\.id) ?? []
        #expect(ids.prefix(32) == history[29..<60].map(\.id) + [queued[0].id])
        #expect(ids.dropFirst(32).first == queued[2].id)
        #expect(ids.count == 150)
    }

    @Test func aQueuedMessageAboveTheWindowCanBeTappedAndCancelled() async throws {
        // Given the chat open on the newest 50 of its 120 queued
        let model = makeModel()
        model.start()
        await clock.advance(by: .seconds(1))
        let recorder = StateRecorder(model)

        // When the user taps the oldest queued message, which is not among the rows, and cancels it
        try model.tapMessage(messageID: queued[0].id)
        try model.chooseAlertAction("Cancel")

        // Then its sheet opened, and closed with the rows unchanged as the banner counted one fewer, in one state;
        // it left the outbox
        let rows = Array(queued[70...].map { historyRow($0) })
        #expect(
            recorder.states == [
                state(rows, hasMore: true),
                // Online under the manual policy: the sheet says it waits for the user, with Send Now
                state(rows, hasMore: true, alert: .init(messageID: queued[0].id, kind: .queuedActions, wait: .user)),
                state(rows, hasMore: true, waiting: 119),
            ])
        #expect(outbox.deleteCalls == [queued[0].id])
    }

    // MARK: - Helpers

    private func makeModel() -> ChatViewModel { makeChat(repository: repository) }

    /// The chat's state online with the 120 queued messages waiting unless `waiting` says otherwise.
    private func state(
        _ rows: [MessageRow], hasMore: Bool, isLoading: Bool = false, isLoadingOlder: Bool = false,
        waiting: Int = 120, alert: ChatViewModel.MessageAlert? = nil
    ) -> ChatViewModel.State {
        chatState(
            rows, hasMore: hasMore, isLoading: isLoading, isLoadingOlder: isLoadingOlder, waiting: waiting,
            alert: alert)
    }
}
