import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// Cache first: a chat the device holds shows at once, whatever the backend does, and the backend's page merges in
/// when it answers.
@MainActor
@Suite struct ChatViewModelCacheFirstTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    /// A backend behind a device cache: pages come from `backend`, the device holds `held`.
    struct DeviceBacked: MessageRepository, CachedMessagePages {
        let backend: FakeMessageRepository
        let held: [Message]

        func send(_ message: Message) async throws(DeliveryError) -> Message { try await backend.send(message) }

        func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
            try await backend.sendBatch(messages)
        }

        func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
            async throws(DeliveryError) -> MessagePage
        {
            try await backend.messages(in: conversation, before: cursor, limit: limit)
        }

        func cachedMessages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
            -> MessagePage?
        {
            held.isEmpty ? nil : MessagePage(messages: Array(held.suffix(limit)), hasMore: held.count > limit)
        }
    }

    @Test func aHeldChatShowsAtOnceWhileTheBackendSaysNothingAndItsPageMergesInOneState() async {
        // Given 60 messages at the backend, of which the device holds the 40 oldest, and a backend that takes 4 s
        let history = ChatFixture.history(from: clock.now.addingTimeInterval(-5.5 * 3_600))
        let backend = backend(history, latency: .seconds(4))
        let model = makeChat(repository: DeviceBacked(backend: backend, held: Array(history.prefix(40))))
        let recorder = StateRecorder(model)

        // When the chat opens, before the backend has answered anything
        model.start()

        // Then the held rows show at once, loading; no clock time has passed
        let held = history.prefix(40).map { historyRow($0) }
        #expect(recorder.states.last == chatState(held, isLoading: true))

        // And when the backend answers, its newest page merges in, in one state
        await clock.advance(by: .seconds(5))
        #expect(recorder.states.count == 3)
        #expect(recorder.states.last?.messages.map(\.id) == history.suffix(50).map(\.id))
        #expect(recorder.states.last?.isLoading == false)
    }

    @Test func aChatTheDeviceDoesNotHoldWaitsForTheBackendAsBefore() async {
        // Given nothing held on the device
        let history = ChatFixture.history(from: clock.now.addingTimeInterval(-3_600))
        let model = makeChat(repository: DeviceBacked(backend: backend(history), held: []))
        let recorder = StateRecorder(model)

        // When the chat opens, then it shows loading with no rows until the page comes
        model.start()
        #expect(recorder.states.last == chatState([], isLoading: true))
        await clock.advance(by: .seconds(2))
        #expect(recorder.states.last?.messages.count == 50)
    }

    @Test(arguments: [DeliveryError.unreachable, .unanswered])
    func aChatNotHeldWhoseBackendRefusesOrAnswersNothingSaysItLoadsWhenTheServerIsBack(_ error: DeliveryError) async {
        // Given nothing held on the device and a backend that refuses, or is frozen past the bound
        let backend = backend([], latency: .seconds(1))
        backend.fail(with: error)
        let model = makeChat(repository: DeviceBacked(backend: backend, held: []))

        // When the chat opens and the page request ends
        model.start()
        await clock.advance(by: .seconds(2))

        // Then it says the server can't be reached and the chat loads when it is back: not a load failure
        #expect(model.state.error == ChatViewModel.unreachableLoadText)
        #expect(model.state.isLoading == false)
    }

    /// A client whose first page request the device answers (the backend out of reach), then the backend answers.
    final class AnsweredByTheDeviceFirst: MessageRepository, @unchecked Sendable {
        let backend: FakeMessageRepository
        let held: [Message]
        var calls = 0

        init(backend: FakeMessageRepository, held: [Message]) {
            self.backend = backend
            self.held = held
        }

        func send(_ message: Message) async throws(DeliveryError) -> Message { try await backend.send(message) }

        func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
            try await backend.sendBatch(messages)
        }

        func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
            async throws(DeliveryError) -> MessagePage
        {
            calls += 1
            guard calls > 1 else { return MessagePage(messages: held, hasMore: false, isCached: true) }
            return try await backend.messages(in: conversation, before: cursor, limit: limit)
        }
    }

    @Test func aNewestPageTheDeviceAnsweredIsAskedForAgainOnceTheFeedIsLive() async {
        // Given a chat opened while the backend was out of reach, answered by the device with 20 of 30 messages
        // (what it held before it forgot the conversation: the feed will not bring the other ten again)
        let history = Array(ChatFixture.history(from: clock.now.addingTimeInterval(-3_600)).prefix(30))
        let repository = AnsweredByTheDeviceFirst(
            backend: backend(history, latency: .zero), held: Array(history.prefix(20)))
        let sync = FakeLiveSync()
        let model = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox, repository: repository,
            banner: makeBanner(), clock: clock, sync: sync)
        model.start()
        await clock.idle()
        #expect(model.state.messages.count == 20)

        // When the feed is live again
        sync.announce(.live(true))
        await clock.idle()

        // Then the newest page was asked for again, and the chat shows all thirty
        #expect(repository.calls == 2)
        #expect(model.state.messages.map(\.id) == history.map(\.id))
    }
}
