import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct ChatViewModelPagingTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)
    let history: [Message]
    let repository: FakeMessageRepository

    init() {
        // 60 messages, five and a half hours old, alternating between Ana and me.
        history = ChatFixture.history(from: screen.clock.now.addingTimeInterval(-5.5 * 3_600))
        repository = screen.backend(history)
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
        let other = "1 of them is in another chat."
        #expect(
            recorder.states == [
                chatState([], waiting: 2, elsewhere: other),
                chatState([draftRow], isLoading: true, waiting: 2, elsewhere: other),
                chatState(
                    (11..<60).map { historyRow(history[$0]) } + [draftRow], hasMore: true, waiting: 2, elsewhere: other),
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

    @Test func aBackendThatPagesByItsOwnTokensIsHandedTheTokenAsItCame() async {
        // Given a backend whose pages carry opaque tokens and that refuses any other cursor, and a chat showing its
        // newest 50 of 60
        let tokens = TokenPagedHistory(history)
        let model = makeModel(repository: tokens)
        model.start()
        await clock.advance(by: .seconds(1))

        // When the user scrolls up
        model.loadOlderMessages()
        await clock.advance(by: .seconds(1))

        // Then the request carried the token the newest page came with, and all 60 show
        #expect(tokens.requests == [nil, "opaque-10"])
        #expect(model.state.messages.map(\.id) == history.map(\.id))
        #expect(model.state.error == nil)
    }

    @Test func anUncachedChatOpenedOfflineSaysItLoadsOnceBackOnline() async {
        let failing = backend(latency: .zero, reachable: ManualConnectivity(online: false))
        let model = makeModel(repository: failing)
        let recorder = StateRecorder(model)

        model.start()
        await clock.idle()

        #expect(
            recorder.states == [
                chatState([], hasMore: false),
                chatState([], hasMore: false, isLoading: true),
                // The newest page never came: nothing says this is the beginning
                chatState(
                    [], hasMore: true,
                    error: "You're offline. This conversation will load when you're back online."),
            ])
    }

    // MARK: - Helpers

    private func makeModel(repository: (any MessageRepository)? = nil) -> ChatViewModel {
        makeChat(repository: repository ?? self.repository)
    }
}

@MainActor
@Suite struct ChatViewModelLifetimeTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test func closingTheChatCancelsItsLoadAndTimers() async {
        // Given a chat whose first page is still loading, with a relative-time refresh pending
        outbox.seed("draft")
        var model: ChatViewModel? = makeChat(repository: backend())
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

/// A page that fails to load says so in a load's words, and the next "more" asks for what is missing.
@MainActor
@Suite struct ChatViewModelLoadFailureTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    private func history(_ count: Int) -> [Message] {
        (0..<count).map { index in
            Message(
                id: MessageID(String(format: "h%03d", index)), conversationID: "c1", senderID: "ana",
                text: "h\(index)", timestamp: clock.now.addingTimeInterval(Double(index - count)), status: .read)
        }
    }

    private func row(_ message: Message) -> MessageRow {
        MessageRow(
            id: message.id, text: message.text, status: .read, senderID: "ana", statusLabel: "", isOutgoing: false,
            timeText: "Now", canRetry: false)
    }

    @Test func aNewestPageThatFailedSaysSoAndMoreLoadsItInsteadOfClaimingTheBeginning() async {
        // Given a chat whose first page request meets a server error
        let messages = history(2)
        let repository = backend(messages)
        repository.script = [.fail(.server(code: 500)), .answer]
        let model = makeChat(repository: repository)
        let recorder = StateRecorder(model)

        // When it opens, then the user asks for more
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        model.loadOlderMessages()
        _ = await clock.run(until: { !model.hasPendingWork })

        // Then the failure spoke of loading, not of sending, left "more" possible, and more loaded the newest page
        let failed = "Failed to load messages. Please try again."
        #expect(
            recorder.states == [
                chatState([]),
                chatState([], isLoading: true),
                chatState([], hasMore: true, error: failed),
                chatState([], hasMore: true, isLoading: true),
                chatState(messages.map(row)),
            ])
        #expect(repository.pageRequests == [nil, nil])
    }

    @Test func anOlderPageThatFailedSaysFailedToLoadMoreMessages() async {
        // Given a chat of 60 messages open on its newest 50, and an older page that fails once
        let messages = history(60)
        let repository = backend(messages)
        let model = makeChat(repository: repository)
        model.start()
        _ = await clock.run(until: { !model.hasPendingWork })
        repository.script = [.fail(.timeout), .answer]
        let recorder = StateRecorder(model)

        // When the user asks for more
        model.loadOlderMessages()
        _ = await clock.run(until: { !model.hasPendingWork })

        // Then the story's words show, the rows stay, and more is still possible
        let newest = messages[10...].map(row)
        #expect(
            recorder.states == [
                chatState(newest, hasMore: true),
                chatState(newest, hasMore: true, isLoadingOlder: true),
                chatState(newest, hasMore: true, error: "Failed to load more messages"),
            ])

        // And when the next `more` loads, the text ends with its truth in the same state as the page
        model.loadOlderMessages()
        _ = await clock.run(until: { !model.hasPendingWork })
        let last = recorder.states.suffix(2)
        #expect(last.map(\.isLoadingOlder) == [true, false])
        #expect(last.map(\.error) == ["Failed to load more messages", nil])
        #expect(last.last?.messages.count == 60)
    }
}

/// A backend that pages by tokens of its own (`opaque-N`: the page before the Nth message), as many backends do, and
/// answers any other cursor with a validation error.
private final class TokenPagedHistory: MessageRepository, @unchecked Sendable {
    private let history: [Message]
    private let lock = NSLock()
    private var asked: [String?] = []

    init(_ history: [Message]) { self.history = history }

    /// The token of each page request, nil for the newest page.
    var requests: [String?] { lock.withLock { asked } }

    func send(_ message: Message) async throws(DeliveryError) -> Message { throw .forbidden }

    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        lock.withLock { asked.append(cursor?.token) }
        var end = history.count
        if let cursor {
            guard let token = cursor.token, token.hasPrefix("opaque-"), let index = Int(token.dropFirst(7)),
                (0...history.count).contains(index)
            else { throw .validation(reason: "a cursor this backend did not give") }
            end = index
        }
        let start = max(0, end - limit)
        return MessagePage(
            messages: Array(history[start..<end]), hasMore: start > 0, olderToken: start > 0 ? "opaque-\(start)" : nil)
    }
}
