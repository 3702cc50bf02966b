import CourierData
import CourierDomain
import CourierFakes
import CourierPresentation
import Foundation

/// A client of the demo world (`DemoData` seed 7) over the simulated network, on its own clock and simulated disk,
/// under the automatic policy: the world `courier-bench lie-fi` and `outage` run in.
@MainActor
final class SimulatedClientWorld {
    let clock = ManualClock()
    let backend: InMemoryChatBackend
    let network: NetworkConditioner
    let client: CourierClient
    let banner: ConnectivityBannerViewModel

    init(seed: UInt64) throws {
        backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 7, now: clock.now), journal: InMemoryBackendJournal())
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: seed))
        client = try CourierClient(
            directory: URL(fileURLWithPath: "/bench"), currentUser: backend.signedInUser, messages: network,
            conversations: network, users: network, connectivity: network, clock: clock, ids: .seeded(seed),
            policy: .automatic, feed: network, probeRandom: LockedRandom(seed: seed),
            fileSystem: SimulatedFileSystem())
        banner = ConnectivityBannerViewModel(session: client)
    }

    /// Opens Ben's chat and runs the clock until `shown` holds; returns the wall seconds from `start()` to then.
    func open(until shown: @escaping @MainActor (ChatViewModel) -> Bool) async throws -> Double {
        let chat = ChatViewModel(session: client, conversationID: "c2", title: "Ben", banner: banner)
        return try await timed(chat, "Ben's chat", start: { $0.start() }, until: shown)
    }

    /// Opens the conversation list and runs the clock until `shown` holds; returns the wall seconds from `load()` to
    /// then.
    func openList(until shown: @escaping @MainActor (ConversationsListViewModel) -> Bool) async throws -> Double {
        let list = ConversationsListViewModel(session: client)
        return try await timed(list, "the conversation list", start: { $0.load() }, until: shown)
    }

    /// Starts `screen` and runs the clock until `shown` holds; the wall seconds from the start to then.
    private func timed<Screen>(
        _ screen: Screen, _ name: String, start: (Screen) -> Void, until shown: @escaping @MainActor (Screen) -> Bool
    ) async throws -> Double {
        let begin = DispatchTime.now().uptimeNanoseconds
        start(screen)
        if !shown(screen) {
            guard await clock.run(until: { shown(screen) }, limit: .seconds(120)) else {
                throw BenchFailure("\(name) never showed")
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    }
}
