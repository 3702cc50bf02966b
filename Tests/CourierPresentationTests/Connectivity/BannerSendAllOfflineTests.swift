import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The banner's Send All never claims to send what it did not: offline it sends nothing, says the queue will go the
/// moment the device is back, and then sends it without asking again.
@MainActor
@Suite struct BannerSendAllOfflineTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    @Test func sendAllOfflineSaysTheQueueGoesWhenBackAndSendsItThenWithoutAToast() async {
        // Given two queued messages offline
        network.set(online: false)
        for text in ["a", "b"] { _ = outbox.seed(text) }
        let model = makeBanner()
        let recorder = StateRecorder(model)

        // When the user presses Send All offline
        let outcome = model.sendAll()

        _ = await clock.run(until: { !model.hasPendingWork })

        // Then nothing was sent (the outbox holds the request), and the banner says they go when back online,
        // without its Send All button
        #expect(outcome == .sendsWhenOnline(2))
        #expect(outbox.sendAllRequested)
        #expect(outbox.pending.map(\.status) == [.queued, .queued])
        var armed = bannerState(online: false, count: 2, banner: "You're offline. 2 messages queued.")
        armed.banner.text = "You're offline. 2 messages will send when you're back online."
        armed.banner.showsSendAll = false
        armed.banner.sendsWhenOnline = true
        let queued = bannerState(online: false, count: 2, banner: "You're offline. 2 messages queued.")
        #expect(recorder.states == [queued, armed])

        // When the device comes back
        network.set(online: true)
        _ = await clock.run(until: { outbox.pending.isEmpty && !outbox.isBusy })

        // Then the queue went by itself, with no second Send All, and no toast asked about it
        #expect(outbox.sendAllCalls == 1)
        #expect(outbox.pending.isEmpty)
        #expect(!recorder.states.contains { $0.toast.visible })
        #expect(recorder.states.last?.banner.visible == false)
    }

    @Test func sendAllOnlineSaysHowManyBeganAndWithNothingQueuedSaysSo() async {
        // Online with one queued message, Send All begins sending it
        network.set(online: false)
        _ = outbox.seed("x")
        network.set(online: true)
        let model = makeBanner()
        #expect(model.sendAll() == .sending(1))
        _ = await clock.run(until: { !model.hasPendingWork })
        #expect(outbox.sendAllCalls == 1)

        // With nothing queued, nothing happens
        #expect(model.sendAll() == .nothingWaiting)
        #expect(outbox.sendAllCalls == 1)
    }

    @Test func aQueueEmptiedOfflineIsNoLongerSetToGo() throws {
        // Given Send All pressed offline over one message, which the user then deletes
        network.set(online: false)
        let message = outbox.seed("x")
        let model = makeBanner()
        model.sendAll()
        try outbox.delete(message.id)

        // When something new is queued, then the banner counts it as plainly queued: the old Send All is spent
        try outbox.compose(text: "y", in: "c1")
        #expect(model.state.banner.text == "You're offline. 1 message queued.")
        #expect(model.state.banner.showsSendAll)
    }
}
