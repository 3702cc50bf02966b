import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation

/// The demo world the sync engine's end-to-end tests run in: the demo backend (seed 1) behind the simulated network,
/// on a manual clock, and the clients of `me` opened over it on a simulated disk — the real outbox, caches and sync
/// engine.
@MainActor
final class DemoWorldFixture {
    let clock: ManualClock
    let backend: InMemoryChatBackend
    let network: NetworkConditioner
    /// The disk every client opens on unless given another (a relaunch on it finds what the last launch left).
    let disk = SimulatedFileSystem()
    private let ids = IDGenerator.seeded(9)

    /// The world on `clock`, no client open yet.
    init(clock: ManualClock = ManualClock()) throws {
        self.clock = clock
        backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
    }

    /// Opens a client of `me` in `directory` through the network, its ids from `seed`.
    func open(
        _ directory: String = "/app", seed: UInt64 = 3, settings: SyncSettings = SyncSettings(),
        disk: SimulatedFileSystem? = nil
    ) throws -> CourierClient {
        try CourierClient(
            directory: URL(fileURLWithPath: directory), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(seed), feed: network,
            syncSettings: settings, fileSystem: disk ?? self.disk)
    }

    /// Runs the clock until `condition` holds (at most ten minutes of clock time).
    func waitUntil(_ condition: () -> Bool) async {
        _ = await clock.run(until: condition, limit: .seconds(600))
    }

    /// Runs the clock until `client`'s work is done and its feed is caught up and listening, its receipts sent.
    func waitUntilSettled(_ client: CourierClient) async {
        let backend = backend
        await waitUntil {
            guard let sync = client.syncEngine else { return true }
            return !client.isBusy && sync.isLive && sync.cursor == backend.feedEndPosition(for: "me")
                && sync.receipts.count == 0
        }
    }

    /// Runs `work` as tracked work, moving the clock until it ends.
    func run(_ work: @escaping @MainActor () async -> Void) async {
        let task = clock.task { await work() }
        _ = await clock.run(until: { task.work.isFinished })
    }

    /// Loads the newest page of `conversation` through `client` (the network answers on the clock).
    @discardableResult
    func load(_ conversation: ConversationID, in client: CourierClient) async throws -> MessagePage {
        let messages = client.messages
        let (result, _) = await clock.drive { try await messages.messages(in: conversation, before: nil, limit: 50) }
        return try result.get()
    }

    /// Loads the first page of the conversation list through `client`, as the list screen does.
    func loadList(in client: CourierClient) async {
        let conversations = client.conversations
        await run { _ = try? await conversations.conversations(of: "me", after: nil, limit: 50) }
    }

    /// Composes `text` in `conversation` through `client` while every request fails, and runs the clock until the
    /// message is marked failed; then the network answers again, a second later.
    func composeFailed(_ text: String, in conversation: ConversationID, by client: CourierClient) async throws
        -> Message
    {
        network.failRate = 1
        let message = try client.outbox.compose(text: text, in: conversation)
        await waitUntil { client.outbox.pending.first { $0.id == message.id }?.status == .failed }
        network.failRate = 0
        await clock.advance(by: .seconds(1))
        return message
    }

    /// A message `sender` sent in `conversation` now, stored at the backend.
    @discardableResult
    func receive(_ text: String, from sender: UserID, in conversation: ConversationID) throws -> Message {
        try backend.receive(
            Message(
                id: ids.next(), conversationID: conversation, senderID: sender, text: text, timestamp: clock.now,
                status: .sent))
    }
}
