import CourierDomain
import CourierPresentation
import Foundation
import Testing

/// A backend reachable only while `network` is online; it holds no history.
@MainActor
private final class ReachableWhenOnlineRepository: MessageRepository {
    let network: ManualConnectivity
    init(network: ManualConnectivity) { self.network = network }

    @MainActor func send(_ message: Message) async throws -> Message { throw DeliveryError.offline }

    @MainActor func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    {
        guard network.isOnline else { throw DeliveryError.offline }
        return MessagePage(messages: [], hasMore: false)
    }
}

/// One connectivity change is one consistent chat state, and a Send All started anywhere takes the toast away.
@MainActor
@Suite struct ChatViewModelConnectivityTests {
    let clock = ManualClock()
    let network = ManualConnectivity(online: false)
    let outbox: QueueFakeOutbox

    init() { outbox = QueueFakeOutbox(clock: clock, connectivity: network) }

    /// The fields a connectivity change moves, in one line per state.
    private func summary(_ state: ChatViewModel.State) -> String {
        "online=\(state.isOnline) banner=\(state.banner.visible ? state.banner.text : "-") "
            + "toast=\(state.toast.visible ? state.toast.text : "-") connected=\(state.connected) "
            + "loading=\(state.isLoading) error=\(state.error ?? "-") rows=\(state.messages.map(\.text))"
    }

    @Test func comingBackOnlineIsOneChatStateWithBannerToastAndLoadInAgreement() async {
        // Given an uncached chat opened offline with one message queued
        outbox.seed("a")
        let banner = ConnectivityBannerViewModel(connectivity: network, outbox: outbox, clock: clock)
        let chat = ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox,
            repository: ReachableWhenOnlineRepository(network: network), connectivity: network, banner: banner,
            clock: clock)
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        let recorder = StateRecorder(chat)

        // When the device comes back online and the page loads
        network.set(online: true)
        await clock.idle()

        // Then the change was one state — online, banner gone, toast asking, loading — and then the page
        let offline = "You're offline. 1 message queued."
        let toast = "Connected. Auto-send 1 queued message?"
        #expect(
            recorder.states.map(summary) == [
                "online=false banner=\(offline) toast=- connected=false loading=false "
                    + "error=\(ChatViewModel.offlineLoadText) rows=[\"a\"]",
                "online=true banner=- toast=\(toast) connected=true loading=true error=- rows=[\"a\"]",
                "online=true banner=- toast=\(toast) connected=true loading=false error=- rows=[\"a\"]",
            ])
    }

    @Test func aSendAllFromTheOfflineQueueTakesTheToastAway() async {
        // Given the reconnect toast asking about two queued messages
        outbox.seed("a")
        outbox.seed("b")
        let banner = ConnectivityBannerViewModel(connectivity: network, outbox: outbox, clock: clock)
        let queue = OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: { $0.rawValue })
        network.set(online: true)
        await clock.advance(by: .seconds(2))
        let recorder = StateRecorder(banner)

        // When the user starts Send All from the Offline Queue, not from the toast
        queue.sendAll()
        #expect(await clock.run(until: { !queue.hasPendingWork }))

        // Then the toast went as the first message started to send, then the count fell as each message left
        #expect(recorder.states.map(\.toast.visible) == [true, false, false])
        #expect(recorder.states.map(\.banner.queuedCount) == [2, 1, 0])
        #expect(outbox.delivered.map(\.text) == ["a", "b"])
    }
}
