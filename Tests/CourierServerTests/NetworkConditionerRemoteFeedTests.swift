import CourierData
import CourierDomain
import CourierFakes
import CourierServer
import CourierTestSupport
import Foundation
import Testing

/// The simulated network carrying the event feed to a real server (the driver's `--server`): the device side runs on
/// a manual clock, the server holds the long poll over a real socket. A poll answered early takes milliseconds; the
/// long hold — the longest the contract allows, since a whole-suite run has kept Ben's send from the server for more
/// than 30 s (CI of stop 44) — only bounds a failing run (see `EventFeedHTTPTests`).
@MainActor
@Suite(.serialized, .removesTemporaryDirectories) struct NetworkConditionerRemoteFeedTests {
    private static let hold: Duration = .seconds(60)

    let fixture: ServerFixture
    let clock = ManualClock()
    let network: NetworkConditioner

    init() throws {
        fixture = try ServerFixture()
        let local = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: ManualClock().now), journal: InMemoryBackendJournal())
        network = NetworkConditioner(backend: local, clock: clock, random: LockedRandom(seed: 1))
        network.remote = fixture.client
    }

    @Test func aLongPollIsHeldByTheServerAndAnswersWhenBenSends() async throws {
        // Given Ben, who sends into c2 once `me`'s poll is held by the server
        let fixture = self.fixture
        let ben = fixture.client(as: "ben")
        let message = Message(
            id: "ben-1", conversationID: "c2", senderID: "ben", text: "from ben",
            timestamp: Date(timeIntervalSinceReferenceDate: 789_000_000), status: .sending)
        let sender = Task {
            guard await fixture.wait(until: { fixture.server.heldPolls == 1 }) else { return false }
            return (try? await ben.send(message)) != nil
        }

        // When `me` polls through the simulated network
        let (result, elapsed) = await clock.drive { [network] in
            try await network.events(for: "me", after: .start, limit: 10, wait: Self.hold)
        }

        // Then the server's answer came back early, after the profile's latency alone, and no round trip was counted
        #expect(await sender.value)
        let answer = try result.get()
        guard case .batch(let batch) = answer else {
            Issue.record("expected a batch, got \(answer)")
            return
        }
        #expect(batch.events.map(\.position) == [FeedPosition(1)])
        #expect(batch.events.first?.change == .message(try #require(fixture.server.backend.message(message.id))))
        #expect(fixture.server.pollsAnsweredEarly == 1)
        #expect(elapsed < 0.1, "\(elapsed)")
        #expect(network.roundTrips == 0)
    }

    @Test func goingOfflineCutsAHeldPollAndTheServerLetsItGo() async throws {
        // Given the device going offline once `me`'s poll is held by the server
        let fixture = self.fixture
        let network = self.network
        let cut = Task {
            guard await fixture.wait(until: { fixture.server.heldPolls == 1 }) else { return false }
            network.setOnline(false)
            return true
        }

        // When `me` polls
        let (result, _) = await clock.drive { [network] in
            try await network.events(for: "me", after: .start, limit: 10, wait: Self.hold)
        }

        // Then the poll fails offline, and the server drops the poll whose client left
        #expect(await cut.value)
        #expect(result == .failure(.offline))
        #expect(await fixture.wait { fixture.server.heldPolls == 0 })
        #expect(fixture.server.pollsAbandoned == 1)
    }

    @Test func receiptsSnapshotsAndTheEndGoToTheServer() async throws {
        let backend = fixture.server.backend
        let newest = try #require(backend.message("c2-m0003"))
        let receipt = Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: newest.cursor)

        let marked = await clock.drive { [network] in try await network.mark(receipt) }
        let end = await clock.drive { [network] in try await network.feedEnd(for: "me") }
        let snapshot = await clock.drive { [network] in
            try await network.snapshot(for: "me", conversationLimit: 2, chats: ["c2"], messageLimit: 3)
        }

        #expect((try? marked.result.get()) != nil)
        #expect(backend.marker(.read, of: "me", in: "c2") == "c2-m0003")
        #expect(end.result == .success(FeedPosition(1)))
        #expect(
            snapshot.result
                == .success(
                    try backend.snapshot(for: "me", conversationLimit: 2, chats: ["c2"], messageLimit: 3, as: "me")))
    }
}
