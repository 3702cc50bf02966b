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
    let outbox: FakeMessageOutbox

    /// A new clock, connectivity (`online` or not) and outbox over them.
    init(online: Bool) {
        network = ManualConnectivity(online: online)
        outbox = FakeMessageOutbox(clock: clock, connectivity: network)
    }

    /// A chat's backend on the clock: it serves pages of `history` after `latency` (reached only while `reachable`
    /// is online, when given) and expects no send — the chat sends through the outbox.
    func backend(
        _ history: [Message] = [], latency: Duration = .seconds(1), reachable: ManualConnectivity? = nil
    ) -> FakeMessageRepository {
        FakeMessageRepository(clock: clock, history: history, serves: .pages, latency: latency, reachable: reachable)
    }
}
