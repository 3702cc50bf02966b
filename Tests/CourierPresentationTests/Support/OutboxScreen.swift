import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation

/// The fakes an `OutboxScreenSuite` runs its screens over.
@MainActor
struct OutboxScreen {
    /// The clock the test advances.
    let clock = ManualClock()
    /// The device's connectivity.
    let network: ManualConnectivity
    /// The outbox every screen of the test shares.
    let outbox: QueueFakeOutbox

    /// A new clock, connectivity (`online` or not) and outbox over them.
    init(online: Bool) {
        network = ManualConnectivity(online: online)
        outbox = QueueFakeOutbox(clock: clock, connectivity: network)
    }
}
