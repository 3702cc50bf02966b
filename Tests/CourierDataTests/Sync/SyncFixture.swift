import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A client on a simulated disk with a scripted feed, a fake message backend and two conversations (`c1` with Ana,
/// `c2` with Ben), with what its sync engine told observers recorded.
@MainActor
final class SyncFixture {
    let clock = ManualClock()
    let disk = SimulatedFileSystem()
    let directory = URL(fileURLWithPath: "/app")
    let connectivity = ManualConnectivity(online: true)
    let feed: FakeEventFeed
    let messages: FakeMessageRepository
    let conversations = FakeConversationRepository([
        Conversation(
            id: "c1", participantIDs: ["me", "ana"], lastActivity: BackendFixtures.now.addingTimeInterval(-60)),
        Conversation(
            id: "c2", participantIDs: ["me", "ben"], lastActivity: BackendFixtures.now.addingTimeInterval(-120)),
    ])
    var settings = SyncSettings()
    private(set) var client: CourierClient?
    private(set) var updates: [SyncUpdate] = []
    private var token: ObservationToken?
    private var sent = 0

    init() {
        feed = FakeEventFeed(clock: clock)
        messages = FakeMessageRepository(clock: clock, latency: .milliseconds(50), reply: .sent)
    }

    /// Opens the client (closing one open before), loads the conversation list through its cache (unless told
    /// not to: the fake backend knows no unread counts), and lets the launch's catch-up finish.
    @discardableResult
    func open(loadingList: Bool = true) async throws -> CourierClient {
        client?.close()
        let client = try CourierClient(
            directory: directory, currentUser: "me", messages: messages, conversations: conversations,
            users: FakeUserRepository(), connectivity: connectivity, clock: clock, ids: .seeded(7), feed: feed,
            syncSettings: settings, fileSystem: disk)
        self.client = client
        updates = []
        token = client.sync.observe { [weak self] update in self?.updates.append(update) }
        if connectivity.isOnline, loadingList {
            _ = try await client.conversations.conversations(of: "me", after: nil, limit: 50)
        }
        await settle()
        return client
    }

    var engine: SyncEngine {
        get throws { try #require(client?.syncEngine) }
    }

    /// Runs the clock until the engine has caught up and the client's work is done (a live poll stays held).
    func settle() async {
        guard let client, let engine = client.syncEngine else { return }
        _ = await clock.run(until: { !engine.isCatchingUp && !client.isBusy && !engine.isDeliveringReceipts })
    }

    /// A stored message from `sender` in `conversation`, `seconds` after the fixtures' start.
    func message(
        _ id: String, from sender: UserID = "ben", in conversation: ConversationID = "c2", at seconds: Double = 1
    ) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: sender, text: "text of \(id)",
            timestamp: BackendFixtures.now.addingTimeInterval(seconds), status: .sent)
    }

    /// The messages of every `.messages` update, in order.
    var arrived: [MessageID] {
        updates.flatMap { update -> [MessageID] in
            if case .messages(let messages) = update { return messages.map(\.id) }
            return []
        }
    }

    /// The conversation as the client's cache holds it (what the list shows offline after a relaunch).
    func cached(_ id: ConversationID) -> Conversation? { client?.conversationCache.conversation(id) }

    func close() {
        token = nil
        client?.close()
        client = nil
    }
}
