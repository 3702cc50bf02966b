import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// One connectivity change is one consistent chat state, and a Send All started anywhere takes the toast away.
@MainActor
@Suite struct ChatViewModelConnectivityTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    /// The fields a connectivity change moves, in one line per state.
    private func summary(_ state: ChatViewModel.State) -> String {
        "online=\(state.isOnline) banner=\(state.banner.visible ? state.banner.text : "-") "
            + "toast=\(state.toast.visible ? state.toast.text : "-") connected=\(state.connected) "
            + "loading=\(state.isLoading) error=\(state.error ?? "-") rows=\(state.messages.map(\.text))"
    }

    @Test func comingBackOnlineIsOneChatStateWithBannerToastAndLoadInAgreement() async {
        // Given an uncached chat opened offline (its backend reachable online only) with one message queued
        outbox.seed("a")
        let chat = makeChat(repository: backend(latency: .zero, reachable: network))
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        let recorder = StateRecorder(chat)

        // When the device comes back online and the page loads
        network.set(online: true)
        await clock.idle()

        // Then the change was one state — online, the banner saying the message waits, toast asking, loading — and
        // then the page
        let offline = "You're offline. 1 message queued."
        let toast = "Connected. Auto-send 1 queued message?"
        #expect(
            recorder.states.map(summary) == [
                "online=false banner=\(offline) toast=- connected=false loading=false "
                    + "error=\(ChatViewModel.offlineLoadText) rows=[\"a\"]",
                "online=true banner=\(waiting(1)) toast=\(toast) connected=true loading=true error=- rows=[\"a\"]",
                "online=true banner=\(waiting(1)) toast=\(toast) connected=true loading=false error=- rows=[\"a\"]",
            ])
    }

    @Test func aSendAllFromTheOfflineQueueTakesTheToastAway() async {
        // Given the reconnect toast asking about two queued messages
        outbox.seed("a")
        outbox.seed("b")
        let banner = makeBanner()
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

    @Test func theQueuedNoticeShowsWhileOfflineWithAMessageQueuedAndGoesWhenEitherEnds() async throws {
        // Given a chat opened offline, nothing queued: no notice
        let chat = makeChat(repository: backend(latency: .zero, reachable: network))
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        #expect(!chat.state.showsQueuedNotice)

        // When a message is composed offline, then the notice says it waits
        let id = try chat.send(text: "later")
        #expect(chat.state.showsQueuedNotice)
        #expect(chat.state.queuedNoticeText == "Message queued - will send when online")

        // And when the device is back online (the message still waiting for the toast), the notice goes
        network.set(online: true)
        await clock.idle()
        #expect(chat.state.messages.last?.status == .queued)
        #expect(!chat.state.showsQueuedNotice)

        // And offline again, it shows again; deleting the queued message takes it away
        network.set(online: false)
        await clock.idle()
        #expect(chat.state.showsQueuedNotice)
        try outbox.delete(id)
        #expect(!chat.state.showsQueuedNotice)
    }

    @Test func theBannerInAChatSaysWhenItsCountCoversOtherChats() async throws {
        // Given two messages waiting in another chat and one in this chat, offline
        let elsewhere = [outbox.seed("for ben", in: "c2"), outbox.seed("for chloe", in: "c3")]
        outbox.seed("for ana", in: "c1")

        // When this chat opens, then its banner counts three and says two of them are elsewhere
        let chat = makeChat(repository: backend(latency: .zero, reachable: network))
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        #expect(chat.state.banner.text == "You're offline. 3 messages queued.")
        #expect(chat.state.bannerElsewhereText == "2 of them are in other chats.")

        // And as the other chats' messages go, it follows, and says nothing once the count is this chat's alone
        try outbox.delete(elsewhere[0].id)
        #expect(chat.state.bannerElsewhereText == "1 of them is in another chat.")
        try outbox.delete(elsewhere[1].id)
        #expect(chat.state.banner.text == "You're offline. 1 message queued.")
        #expect(chat.state.bannerElsewhereText == nil)

        // And a message of another chat alone is said to be all elsewhere
        try outbox.compose(text: "later", in: "c2")
        let ours = chat.state.messages.first { $0.text == "for ana" }
        try outbox.delete(try #require(ours).id)
        #expect(chat.state.bannerElsewhereText == "It is in another chat.")
    }
}
