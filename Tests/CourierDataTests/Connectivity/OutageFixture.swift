import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation

/// A client over the in-process backend behind the simulated network, whose backend can go down (`isRefusing`,
/// `flap`): the real outbox, retry policy, sync engine and reachability, on a manual clock.
@MainActor
final class OutageFixture {
    let clock = ManualClock()
    let backend: InMemoryChatBackend
    let network: NetworkConditioner
    let client: CourierClient

    /// `conversations` one-to-one conversations `c1`… with users `u1`…, and the client signed in as `me`.
    init(policy: SendPolicy, conversations: Int = 2) throws {
        let now = BackendFixtures.now
        let data = DemoData(
            signedInUser: "me",
            users: [User(id: "me", displayName: "Me")]
                + (1...conversations).map { User(id: UserID("u\($0)"), displayName: "User \($0)") },
            conversations: (1...conversations).map { index in
                Conversation(
                    id: ConversationID("c\(index)"), participantIDs: ["me", UserID("u\(index)")],
                    lastActivity: now.addingTimeInterval(-Double(index)))
            },
            messages: [])
        backend = try InMemoryChatBackend(seed: data, journal: InMemoryBackendJournal())
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 11))
        client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(4), policy: policy, feed: network,
            probeRandom: LockedRandom(seed: 5),
            fileSystem: SimulatedFileSystem())
    }

    /// Runs the clock until the client's work is done and its catch-up is over.
    func settle() async {
        let client = client
        _ = await clock.run(until: { !client.isBusy && !(client.syncEngine?.isCatchingUp ?? false) })
    }

    /// The ids the backend stores in `conversation`, in its order.
    func stored(in conversation: ConversationID) -> [MessageID] { backend.messages(in: conversation).map(\.id) }

    /// Composes `text` in `conversation`; returns its id.
    @discardableResult
    func compose(_ text: String, in conversation: ConversationID = "c1") throws -> MessageID {
        try client.outbox.compose(text: text, in: conversation).id
    }
}
