import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The data side's entry point: it owns its directory, closes in order, and its work can be awaited.
@MainActor
@Suite struct CourierClientTests {
    let clock = ManualClock()
    let disk = SimulatedFileSystem()
    let directory = URL(fileURLWithPath: "/app")
    let connectivity = ManualConnectivity(online: true)

    private func open(_ backend: FakeMessageRepository, policy: SendPolicy = .manual) throws -> CourierClient {
        try CourierClient(
            directory: directory, currentUser: "me", messages: backend, conversations: FakeConversationRepository(),
            users: FakeUserRepository(), connectivity: connectivity, clock: clock, ids: .seeded(5), policy: policy,
            fileSystem: disk)
    }

    @Test func closingMidSendLeavesTheMessageForTheNextClientWhichSendsItOnce() async throws {
        // Given a client whose send is in flight
        let backend = FakeMessageRepository(clock: clock, latency: .milliseconds(50), reply: .asGiven)
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
        let backend = FakeMessageRepository(clock: clock, latency: .milliseconds(50), reply: .asGiven)
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
