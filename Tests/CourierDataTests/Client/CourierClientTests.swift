import CourierData
import CourierDomain
import CourierFakes
import Foundation
import Testing

/// A backend whose sends take 50 ms on the clock (a cancelled caller leaves with `CancellationError`) and whose
/// display-name writes are recorded.
@MainActor
private final class SlowBackend: MessageRepository, ConversationRepository, UserRepository {
    let clock: ManualClock
    private(set) var stored: [Message] = []
    private(set) var sends = 0

    init(clock: ManualClock) { self.clock = clock }

    @MainActor func send(_ message: Message) async throws -> Message {
        sends += 1
        try await clock.sleep(for: .milliseconds(50))
        if !stored.contains(where: { $0.id == message.id }) { stored.append(message) }
        return message
    }

    @MainActor func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    {
        MessagePage(messages: [], hasMore: false)
    }

    @MainActor func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int) async throws
        -> ConversationPage
    {
        ConversationPage(conversations: [], hasMore: false)
    }

    @MainActor func users(_ ids: [UserID]) async throws -> [User] { [] }

    @MainActor func presence(_ ids: [UserID]) async throws -> [Presence] { [] }
}

/// The data side's entry point: it owns its directory, closes in order, and its work can be awaited.
@MainActor
@Suite struct CourierClientTests {
    let clock = ManualClock()
    let disk = SimulatedFileSystem()
    let directory = URL(fileURLWithPath: "/app")
    let connectivity = ManualConnectivity(online: true)

    private func open(_ backend: SlowBackend, policy: SendPolicy = .manual) throws -> CourierClient {
        try CourierClient(
            directory: directory, currentUser: "me", messages: backend, conversations: backend, users: backend,
            connectivity: connectivity, clock: clock, ids: .seeded(5), policy: policy, fileSystem: disk)
    }

    @Test func closingMidSendLeavesTheMessageForTheNextClientWhichSendsItOnce() async throws {
        // Given a client whose send is in flight
        let backend = SlowBackend(clock: clock)
        let client = try open(backend)
        let message = try client.outbox.compose(text: "hello", in: "c1")
        await clock.idle()
        #expect(client.isBusy)
        #expect(throws: StoreError.locked(path: directory.path)) { try open(backend) }

        // When the app closes (twice) and opens again
        client.close()
        client.close()
        let next = try open(backend)

        // Then the message was never failed: the next client resends it at launch, and the backend holds it once
        #expect(next.outbox.pending.map(\.id) == [message.id])
        #expect(next.outbox.pending.allSatisfy { $0.status != .failed })
        let done = clock.task { await next.idle() }
        _ = await clock.run(until: { done.work.isFinished })
        #expect(next.outbox.pending.isEmpty)
        #expect(backend.stored.map(\.id) == [message.id])
        next.close()
    }

    @Test func idleWaitsForTheAutomaticPassItStartedOnReconnect() async throws {
        // Given two messages queued offline under the automatic policy
        connectivity.set(online: false)
        let backend = SlowBackend(clock: clock)
        let client = try open(backend, policy: .automatic)
        try client.outbox.compose(text: "one", in: "c1")
        try client.outbox.compose(text: "two", in: "c2")

        // When the device comes online and the app waits for the client's work
        connectivity.set(online: true)
        let done = clock.task { await client.idle() }
        _ = await clock.run(until: { done.work.isFinished })

        // Then idle returned only once both were stored
        #expect(backend.stored.map(\.text).sorted() == ["one", "two"])
        #expect(client.outbox.pending.isEmpty)
        #expect(!client.isBusy)
        client.close()
    }
}
