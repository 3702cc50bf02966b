import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// For the message screens: a released view model ends its observations and timers.
@MainActor
@Suite struct ScreenCleanupTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test func aReleasedChatAndBannerLeaveNoObserverOrTimerBehind() async throws {
        // Given a chat with a message whose relative time is refreshing, observed, over the shared banner
        var banner: ConnectivityBannerViewModel? = ConnectivityBannerViewModel(
            connectivity: network, outbox: outbox, clock: clock)
        var chat: ChatViewModel? = try ChatViewModel(
            conversationID: "c1", currentUser: "me", title: "Ana", outbox: outbox,
            repository: backend(latency: .zero),
            banner: #require(banner), clock: clock)
        weak let releasedChat = chat
        weak let releasedBanner = banner
        chat?.start()
        try chat?.send(text: "hello")
        _ = await clock.run(until: { !(chat?.hasPendingWork ?? false) && !outbox.isBusy })
        var recorder: StateRecorder<ChatViewModel>? = chat.map { StateRecorder($0) }
        #expect(clock.sleeperCount >= 1, "the time text refresh is scheduled")

        // When the screen drops them
        chat = nil
        banner = nil
        await clock.idle()

        // Then both are gone, their timers left the clock, and nothing observes the outbox
        #expect(releasedChat == nil)
        #expect(releasedBanner == nil)
        #expect(clock.sleeperCount == 0)
        #expect(!outbox.hasObservers)
        let heard = recorder?.states.count
        network.set(online: false)
        await clock.advance(by: .seconds(3_600))
        #expect(recorder?.states.count == heard)
        recorder = nil
    }

    @Test func aReleasedOfflineQueueLeavesNoObserverOrTimerBehind() async throws {
        network.set(online: false)
        _ = try outbox.compose(text: "queued", in: "c1")
        var queue: OfflineQueueViewModel? = OfflineQueueViewModel(
            outbox: outbox, clock: clock, conversationName: { _ in "Ana" })
        weak let released = queue
        var recorder: StateRecorder<OfflineQueueViewModel>? = queue.map { StateRecorder($0) }
        await clock.idle()

        queue = nil
        await clock.idle()

        #expect(released == nil)
        #expect(clock.sleeperCount == 0)
        #expect(!outbox.hasObservers)
        let heard = recorder?.states.count
        await clock.advance(by: .seconds(3_600))
        #expect(recorder?.states.count == heard)
        recorder = nil
    }
}
