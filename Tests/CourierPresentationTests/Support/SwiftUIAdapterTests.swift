import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Observation
import Testing

/// The SwiftUI-facing outputs: the `@Observable` adapter and the `states` async sequence, over the closure core.
@MainActor
@Suite struct SwiftUIAdapterTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: true)

    // MARK: - @Observable

    @Test func observationTrackingSeesEachStateChangeOfTheObservableModel() {
        // Given a banner held by a SwiftUI-style observable model, its state read under observation tracking
        let screen = ObservableViewModel(makeBanner())
        let changes = ChangeCounter()
        withObservationTracking {
            _ = screen.state
        } onChange: {
            changes.count += 1
        }
        #expect(screen.state.isOnline)

        // When the device goes offline
        network.set(online: false)

        // Then the tracker was told, and the state now shows the offline banner
        #expect(changes.count == 1)
        #expect(!screen.state.isOnline)
        #expect(screen.state.banner.text == "You're offline. Messages will send when reconnected.")
    }

    @Test func anUnchangedStateDoesNotNotifyTheTracker() throws {
        // Given an observed offline queue screen with nothing queued
        let queue = OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: { $0.rawValue })
        let screen = ObservableViewModel(queue)
        let changes = ChangeCounter()
        withObservationTracking {
            _ = screen.state
        } onChange: {
            changes.count += 1
        }

        // When connectivity changes, which the queue screen does not show
        network.set(online: false)

        // Then nothing was reported; a composed message is
        #expect(changes.count == 0)
        try outbox.compose(text: "one", in: "c1")
        #expect(changes.count == 1)
        #expect(screen.state.rows.map(\.text) == ["one"])
    }

    @Test func aReleasedObservableModelReleasesItsViewModelAndStopsObserving() {
        // Given an observable banner screen
        var screen: ObservableViewModel<ConnectivityBannerViewModel>? = ObservableViewModel(makeBanner())
        weak let releasedScreen = screen
        weak let releasedModel = screen?.viewModel
        #expect(outbox.hasObservers)

        // When the screen goes away
        screen = nil

        // Then the adapter and its view model are gone and nothing observes the outbox any more
        #expect(releasedScreen == nil)
        #expect(releasedModel == nil)
        #expect(!outbox.hasObservers)
    }

    @Test func aChatScreenFollowsASendThroughTheObservableModel() async throws {
        // Given a chat held by an observable model, its state tracked
        let chat = makeChat(repository: backend(latency: .zero))
        let screen = ObservableViewModel(chat)
        chat.start()
        _ = await clock.run(until: { !chat.hasPendingWork })
        let changes = ChangeCounter()
        withObservationTracking {
            _ = screen.state
        } onChange: {
            changes.count += 1
        }

        // When the user sends a message through the view model
        try screen.viewModel.send(text: "hello")
        _ = await clock.run(until: { !chat.hasPendingWork && !outbox.isBusy })

        // Then the tracker heard of it and the observable state shows it
        #expect(changes.count == 1)
        #expect(screen.state.messages.last?.text == "hello")
        #expect(screen.state == chat.state)
    }

    // MARK: - AsyncSequence

    @Test func statesYieldsTheCurrentStateThenEveryChangeInOrder() async {
        // Given a banner's state sequence
        let banner = makeBanner()
        let states = banner.states

        // When the device goes offline, a message is queued, and the banner is released
        network.set(online: false)
        _ = try? outbox.compose(text: "one", in: "c1")
        let expected = [true, false, false]
        var received: [ConnectivityBannerViewModel.State] = []
        for await state in states.prefix(expected.count) { received.append(state) }

        // Then the whole history arrived in order
        #expect(received.map(\.isOnline) == expected)
        #expect(received.map(\.banner.queuedCount) == [0, 0, 1])
    }

    @Test func releasingTheViewModelEndsItsStateSequence() async {
        // Given a banner whose states are being consumed
        var banner: ConnectivityBannerViewModel? = makeBanner()
        let states = banner?.states
        var received = 0

        // When the screen releases the view model
        banner = nil

        // Then the sequence ends after the state it already had, and nothing observes the outbox
        if let states {
            for await _ in states { received += 1 }
        }
        #expect(received == 1)
        #expect(!outbox.hasObservers)
    }

    @Test func aConsumerThatStopsEndsTheObservation() async {
        // Given a screen whose states a task consumes
        let screen = CounterScreen()
        let states = screen.states
        let (seen, seenOne) = AsyncStream<Int>.makeStream()
        let consumer = Task { @MainActor in
            var count = 0
            for await _ in states {
                count += 1
                seenOne.yield(count)
            }
            return count
        }
        var seenCounts = seen.makeAsyncIterator()
        _ = await seenCounts.next()
        screen.store.update { $0 = 1 }
        _ = await seenCounts.next()
        #expect(screen.store.hasObservers)

        // When the consumer is cancelled
        consumer.cancel()
        let count = await consumer.value

        // Then it saw the first state and the change, and no observer is left behind
        #expect(count == 2)
        #expect(!screen.store.hasObservers)
    }
}

/// Counts observation callbacks, from whichever thread Observation calls them on.
private final class ChangeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var count: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// The smallest state emitter, whose observers a test can see.
@MainActor
private final class CounterScreen: StateEmitting {
    let store = StateStore(0)
    var state: Int { store.state }
    func observe(_ observer: @escaping @MainActor (Int) -> Void) -> ObservationToken { store.observe(observer) }
}
