import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// One launch of the signed-in user's device for the compose-order tests: a `CourierClient` on a data directory of
/// a simulated disk (the same disk across launches), reaching a shared in-memory backend through a network
/// conditioner on the launch's own clock, with Ana's chat (`c1`) open.
@MainActor
final class ComposeOrderDevice {
    let clock: ManualClock
    let network: NetworkConditioner
    let client: CourierClient
    let chat: ChatViewModel
    private let backend: InMemoryChatBackend
    private let banner: ConnectivityBannerViewModel

    /// Launches on `disk`, its clock reading `now`, its ids drawn from `seed` (a new seed per launch).
    init(backend: InMemoryChatBackend, disk: SimulatedFileSystem, now: Date, seed: UInt64) throws {
        self.backend = backend
        clock = ManualClock(start: now)
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: seed))
        client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(seed), feed: network,
            fileSystem: disk)
        banner = ConnectivityBannerViewModel(session: client)
        chat = ChatViewModel(session: client, conversationID: "c1", title: "Ana", banner: banner)
        chat.start()
    }

    /// The chat's rows, top to bottom.
    var shown: [MessageID] { chat.state.messages.map(\.id) }

    /// Runs the clock until the launch is quiet: nothing left to do, the feed caught up and listening, every
    /// receipt delivered (online), or nothing left to do (offline).
    func settle() async {
        let client = client
        let chat = chat
        let backend = backend
        let network = network
        _ = await clock.run(
            until: {
                guard !client.isBusy, !chat.hasPendingWork else { return false }
                guard network.isOnline, let sync = client.syncEngine else { return true }
                return sync.isLive && sync.cursor == backend.feedEndPosition(for: "me") && sync.receipts.count == 0
            }, limit: .seconds(600))
    }

    /// Sends `text` from the open chat and lets the send finish.
    @discardableResult
    func send(_ text: String) async throws -> MessageID {
        let id = try chat.send(text: text)
        await settle()
        return id
    }

    /// Sends everything queued (Send All) and lets the pass finish.
    func sendAll() async {
        let client = client
        let pass = clock.task { await client.sendAll() }
        _ = await clock.run(until: { pass.work.isFinished })
        await settle()
    }

    /// Closes the launch (the app goes away).
    func close() { client.close() }
}
