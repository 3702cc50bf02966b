import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct ConnectivityBannerViewModelTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    // MARK: - Offline banner

    @Test func theOfflineBannerCountsQueuedMessagesInSingularAndPlural() throws {
        // Given an online device with nothing queued
        let model = makeBanner()
        let recorder = StateRecorder(model)

        // When it goes offline and the user composes two messages
        network.set(online: false)
        try outbox.compose(text: "one", in: "c1")
        try outbox.compose(text: "two", in: "c2")

        // Then the banner counts them, in the right grammatical number
        #expect(
            recorder.states == [
                bannerState(online: true, count: 0),
                bannerState(online: false, count: 0, banner: "You're offline. Messages will send when reconnected."),
                bannerState(online: false, count: 1, banner: "You're offline. 1 message queued."),
                bannerState(online: false, count: 2, banner: "You're offline. 2 messages queued."),
            ])
    }

    @Test func failedMessagesCountAndDeletedOnesLeaveTheCount() throws {
        // Given an offline device with a queued and a failed message
        network.set(online: false)
        let queued = outbox.seed("queued")
        outbox.seed("failed", status: .failed, lastError: .server(code: 500))
        let model = makeBanner()
        let recorder = StateRecorder(model)

        // When the queued one is deleted
        try outbox.delete(queued.id)

        // Then the count follows, and the failed one is never called queued
        #expect(
            recorder.states == [
                bannerState(online: false, count: 2, banner: "You're offline. 1 message queued. 1 message failed."),
                bannerState(
                    online: false, count: 1,
                    banner: "You're offline. Messages will send when reconnected. 1 message failed."),
            ])
    }

    // MARK: - Toast

    @Test func flickerHidesTheToastWhileOfflineWithoutRestartingItsTenSeconds() async {
        // Given three queued messages offline
        network.set(online: false)
        for text in ["a", "b", "c"] { outbox.seed(text) }
        let model = makeBanner()
        let recorder = StateRecorder(model)
        let offline = bannerState(online: false, count: 3, banner: "You're offline. 3 messages queued.")
        let toast = "Connected. Auto-send 3 queued messages?"

        // When the network comes back, flickers off and on at once, then time passes
        network.set(online: true)
        network.set(online: false)
        network.set(online: true)
        await clock.advance(by: .seconds(2))
        await clock.advance(by: .seconds(7.9))
        let beforeTimeout = recorder.states.count
        await clock.advance(by: .seconds(0.1))

        // Then the toast goes while offline (Yes could send nothing) and comes back with the same countdown:
        // "Connected" shows for 2 s, and the toast goes 10 s after it first showed, not before
        #expect(beforeTimeout == 5)
        #expect(
            recorder.states == [
                offline,
                bannerState(online: true, count: 3, toast: toast, connected: true),
                offline,
                bannerState(online: true, count: 3, toast: toast, connected: true),
                bannerState(online: true, count: 3, toast: toast),
                bannerState(online: true, count: 3),
            ])
    }

    @Test func oneQueuedMessageIsAskedAboutInTheSingular() {
        network.set(online: false)
        outbox.seed("only")
        let model = makeBanner()

        network.set(online: true)

        #expect(model.state.toast.text == "Connected. Auto-send 1 queued message?")
        #expect(model.state.toast.queuedCount == 1)
    }

    @Test func reconnectingWithAnEmptyQueueOnlySaysConnected() async {
        network.set(online: false)
        let model = makeBanner()
        let recorder = StateRecorder(model)

        network.set(online: true)
        await clock.advance(by: .seconds(1.9))
        let stillConnected = model.state.connected
        await clock.advance(by: .seconds(0.1))

        #expect(stillConnected)
        #expect(
            recorder.states == [
                bannerState(online: false, count: 0, banner: "You're offline. Messages will send when reconnected."),
                bannerState(online: true, count: 0, connected: true),
                bannerState(online: true, count: 0),
            ])
    }

    @Test func theAutomaticPolicyShowsNoToastButReconnectingUntilTheQueueIsSent() async {
        // Given a queued message offline, with the automatic policy
        network.set(online: false)
        outbox.seed("a")
        outbox.policy = .automatic
        let model = makeBanner()
        let recorder = StateRecorder(model)

        // When the device reconnects, and the automatic pass sends the message (1 s of latency)
        network.set(online: true)
        let outbox = outbox
        let pass = Task { await outbox.sendAll() }
        await clock.advance(by: .seconds(2))
        await pass.value

        // Then no toast asks: the banner reads "Reconnecting..." while the pass runs, then "Connected" briefly
        #expect(
            recorder.states == [
                bannerState(online: false, count: 1, banner: "You're offline. 1 message queued."),
                bannerState(online: true, count: 1, connected: true, reconnecting: true),
                bannerState(online: true, count: 0, connected: true, reconnecting: true),
                bannerState(online: true, count: 0, connected: true),
                bannerState(online: true, count: 0),
            ])
    }

    @Test func yesSendsTheQueueOnce() async throws {
        // Given the toast asking about two messages
        network.set(online: false)
        outbox.seed("a")
        outbox.seed("b")
        let model = makeBanner()
        network.set(online: true)
        await clock.advance(by: .seconds(2))
        let recorder = StateRecorder(model)

        // When the user answers Yes and the sends finish
        try model.acceptToast()
        #expect(model.hasPendingWork)
        #expect(await clock.run(until: { !model.hasPendingWork }))

        // Then Send All ran once, the toast went at once and the count fell as each message left
        #expect(outbox.sendAllCalls == 1)
        #expect(outbox.delivered.map(\.text) == ["a", "b"])
        #expect(
            recorder.states == [
                bannerState(online: true, count: 2, toast: "Connected. Auto-send 2 queued messages?"),
                bannerState(online: true, count: 2),
                bannerState(online: true, count: 1),
                bannerState(online: true, count: 0),
            ])
        #expect(throws: PresentationError.noToastShowing) { try model.acceptToast() }
        #expect(outbox.sendAllCalls == 1)
    }

    @Test func reviewFirstOpensTheOfflineQueueAndSendsNothing() throws {
        network.set(online: false)
        outbox.seed("a")
        var opened = 0
        let model = makeBanner(actions: .init(showOfflineQueue: { opened += 1 }))
        network.set(online: true)

        try model.reviewToast()

        #expect(opened == 1)
        #expect(model.state.toast == .hidden)
        #expect(outbox.sendAllCalls == 0)
    }

    @Test func dismissingHidesTheToastAndItsTimerNoLongerMatters() async throws {
        let model = bannerAskingAboutOneMessage()
        let recorder = StateRecorder(model)

        try model.dismissToast()
        await clock.advance(by: .seconds(10))

        #expect(
            recorder.states == [
                bannerState(online: true, count: 1, toast: "Connected. Auto-send 1 queued message?", connected: true),
                bannerState(online: true, count: 1, connected: true),
                bannerState(online: true, count: 1),
            ])
        #expect(recorder.states.map(\.connectedText) == ["Connected", "Connected", ""])
    }

    @Test func toastAnswersWithoutAToastThrowAndChangeNothing() {
        let model = makeBanner()
        let recorder = StateRecorder(model)

        #expect(throws: PresentationError.noToastShowing) { try model.acceptToast() }
        #expect(throws: PresentationError.noToastShowing) { try model.reviewToast() }
        #expect(throws: PresentationError.noToastShowing) { try model.dismissToast() }

        #expect(recorder.states == [bannerState(online: true, count: 0)])
        #expect(outbox.sendAllCalls == 0)
    }

    @Test func aReconnectAfterTheToastWentAsksAgain() async throws {
        let model = bannerAskingAboutOneMessage()
        try model.dismissToast()

        network.set(online: false)
        network.set(online: true)

        #expect(model.state.toast.visible)
    }

    @Test func goingOfflineBeforeAnsweringTakesTheToastAwayAndYesCanNoLongerBeAnswered() throws {
        // Given the toast asking about one message
        let model = bannerAskingAboutOneMessage()
        let recorder = StateRecorder(model)

        // When the device goes offline again before the user answers
        network.set(online: false)

        // Then the toast is gone with the banner back, and Yes sends nothing
        #expect(
            recorder.states == [
                bannerState(online: true, count: 1, toast: "Connected. Auto-send 1 queued message?", connected: true),
                bannerState(online: false, count: 1, banner: "You're offline. 1 message queued."),
            ])
        #expect(throws: PresentationError.noToastShowing) { try model.acceptToast() }
        #expect(outbox.sendAllCalls == 0)
    }

    @Test func aLaunchOnlineWithAQueueAsksUnderTheManualPolicyOnly() async {
        // Given two queued messages found at launch, online
        outbox.seed("a")
        outbox.seed("b")

        // When the app's banner starts (it prompts at launch), and ten seconds pass
        let model = ConnectivityBannerViewModel(
            connectivity: network, outbox: outbox, clock: clock, promptsAtLaunch: true)
        let recorder = StateRecorder(model)
        await clock.advance(by: .seconds(10))

        // Then the toast asked at once and went after its ten seconds
        #expect(
            recorder.states == [
                bannerState(online: true, count: 2, toast: "Connected. Auto-send 2 queued messages?"),
                bannerState(online: true, count: 2),
            ])

        // And with the automatic policy nothing asks: the outbox sends by itself
        outbox.policy = .automatic
        let automatic = ConnectivityBannerViewModel(
            connectivity: network, outbox: outbox, clock: clock, promptsAtLaunch: true)
        #expect(automatic.state == bannerState(online: true, count: 2))
    }

    @Test func theBannersReviewOpensTheOfflineQueue() {
        network.set(online: false)
        outbox.seed("a")
        var opened = 0
        let model = makeBanner(actions: .init(showOfflineQueue: { opened += 1 }))

        model.review()

        #expect(opened == 1)
        #expect(outbox.sendAllCalls == 0)
    }

    // MARK: - Helpers

    /// A banner whose reconnect toast asks about one queued message: it went offline with "a" queued and came back.
    private func bannerAskingAboutOneMessage() -> ConnectivityBannerViewModel {
        network.set(online: false)
        outbox.seed("a")
        let model = makeBanner()
        network.set(online: true)
        return model
    }
}
