import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The banner tells an unreachable server from a device offline.
@MainActor
@Suite struct BannerReachabilityTests {
    /// A device online whose backend may not answer.
    final class ServerConnectivity: ConnectivityMonitor {
        private let observers = ObserverList<Bool>()
        var isBackendReachable = true
        var isOnline: Bool { isBackendReachable }

        func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
            let token = observers.add(observer)
            observer(isOnline)
            return token
        }

        func serverGoes(down: Bool) {
            isBackendReachable = !down
            observers.notify(isOnline)
        }
    }

    @Test func anUnreachableServerIsSaidSoWithTheQueueCountedAndNotCalledOffline() async throws {
        // Given a device online with one queued message
        let clock = ManualClock()
        let connectivity = ServerConnectivity()
        let outbox = FakeMessageOutbox(clock: clock, connectivity: ManualConnectivity(online: false))
        try outbox.compose(text: "waiting", in: "c1")
        let banner = ConnectivityBannerViewModel(connectivity: connectivity, outbox: outbox, clock: clock)

        // When the server stops answering, then comes back
        connectivity.serverGoes(down: true)
        let down = banner.state
        connectivity.serverGoes(down: false)

        // Then the banner said the server cannot be reached, counted the queue, and offered Send All
        #expect(down.banner.visible)
        #expect(down.banner.text == "Can't reach the server. 1 message queued.")
        #expect(!down.isBackendReachable)
        #expect(down.banner.showsSendAll)
        // and once it answers, the banner stays while the message waits for the user (manual policy)
        #expect(banner.state.banner.text == "1 message waiting to send.")
        #expect(banner.state.banner.showsSendAll)
        #expect(banner.state.isBackendReachable)
        #expect(
            ConnectivityBannerViewModel.unreachableText(queuedCount: 0)
                == "Can't reach the server. Messages will send when it's back.")
        #expect(
            ConnectivityBannerViewModel.unreachableText(queuedCount: 3) == "Can't reach the server. 3 messages queued.")
    }
}
