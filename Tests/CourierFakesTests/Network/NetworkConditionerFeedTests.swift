import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The event feed over the simulated network: a long poll held on the clock, answered as soon as something arrives,
/// cut by going offline or by its caller, and invisible to the fates and counts of the other requests.
@MainActor
@Suite("NetworkConditioner: event feed")
struct NetworkConditionerFeedTests {
    private let clock = ManualClock()
    private let backend: InMemoryChatBackend
    private let network: NetworkConditioner

    init() throws {
        backend = try BackendFixtures.backend()
        network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1), profile: .threeG)
        // The device is Ana's: the feed it polls is hers.
        network.user = "ana"
    }

    /// Starts Ana's long poll after `cursor`, held up to `wait`, and lets it travel out to the backend: returns it
    /// with the time that took (half the round trip's latency).
    private func heldPoll(after cursor: FeedPosition = .start, wait: Duration = .seconds(30)) async
        -> (poll: FeedPoll, outbound: TimeInterval)
    {
        let start = clock.now
        let poll = FeedPoll(on: clock) { [network] in
            try await network.events(for: "ana", after: cursor, limit: 10, wait: wait)
        }
        await clock.idle()
        await clock.advanceToNextDeadline()
        return (poll, clock.now.timeIntervalSince(start))
    }

    @Test("a poll with events waiting answers them after one round trip, without holding")
    func eventsWaitingAnswerAtOnce() async throws {
        try backend.send(BackendFixtures.message("m1"))

        let (result, elapsed) = await clock.drive { [network] in
            try await network.events(for: "ana", after: .start, limit: 10, wait: .seconds(30))
        }

        guard case .batch(let batch) = try result.get() else { throw DeliveryError.unknown("expired") }
        #expect(batch.events.map(\.position) == [FeedPosition(1)])
        #expect((0.2...0.4).contains(elapsed))
    }

    @Test("a held poll that a long jump of the clock passes ends at the end of the jump, once, not at its deadline")
    func aLongJumpEndsAHeldPollAtItsEnd() async throws {
        // Given Ana's poll held at the backend
        let (poll, _) = await heldPoll()
        let jumpEnd = clock.now.addingTimeInterval(3_650 * 86_400)

        // When ten idle years pass at once (a script's `advance 3650d`)
        await clock.advance(by: .seconds(3_650 * 86_400))

        // Then the hold ended at the end of the jump, as a device waking from sleep sees it: its empty answer is
        // only now on its way back (a poll held to its own deadline would have answered years ago, and a loop of
        // polls would have run ten million times during the jump)
        #expect(!poll.hasEnded)
        await clock.advanceToNextDeadline()
        #expect(poll.hasEnded && clock.now > jumpEnd)
        guard case .batch(let batch) = poll.answer else { throw DeliveryError.unknown("no batch") }
        #expect(batch.events.isEmpty)
    }

    @Test("a held poll answers as soon as a message arrives: at its arrival plus the way back, not at the deadline")
    func heldPollAnswersOnArrival() async throws {
        // Given Ana's poll held at the backend, with nothing for her 5 s later
        let start = clock.now
        let (poll, outbound) = await heldPoll()
        #expect((0.1...0.2).contains(outbound))
        await clock.advance(by: .seconds(5))
        #expect(!poll.hasEnded)

        // When my message arrives
        let arrival = clock.now
        let stored = try backend.send(BackendFixtures.message("m1"))
        _ = await clock.run(until: { poll.hasEnded })

        // Then the poll answers with it once the answer has travelled back (the same half of the latency)
        let endedAt = try #require(poll.endedAt)
        #expect(abs(endedAt.timeIntervalSince(arrival) - outbound) < 0.000_001)
        #expect(endedAt < start.addingTimeInterval(30))
        let event = FeedEvent(position: FeedPosition(1), change: .message(stored))
        #expect(poll.answer == .batch(FeedBatch(events: [event], end: FeedPosition(1), hasMore: false)))
    }

    @Test("with nothing arriving, a held poll answers an empty batch once its wait has passed")
    func heldPollTimesOutEmpty() async throws {
        // Given Ana has read her two events, and polls after them
        try backend.send(BackendFixtures.message("m1"))
        try backend.send(BackendFixtures.message("m2", at: 1))
        let start = clock.now
        let (poll, outbound) = await heldPoll(after: FeedPosition(2), wait: .seconds(30))

        // When a message arrives for someone else, and the wait all but runs out
        try backend.receive(BackendFixtures.message("b1", in: "c2", from: "ben"))
        await clock.advance(to: start.addingTimeInterval(outbound + 29.9))
        #expect(!poll.hasEnded)
        _ = await clock.run(until: { poll.hasEnded })

        // Then it answers nothing new, the cursor it was asked with, after the wait and the round trip
        #expect(poll.answer == .batch(FeedBatch(events: [], end: FeedPosition(2), hasMore: false)))
        let elapsed = try #require(poll.endedAt).timeIntervalSince(start)
        #expect(abs(elapsed - (30 + 2 * outbound)) < 0.000_001)
    }

    @Test("going offline cuts a held poll with .offline at once")
    func offlineCutsHeldPoll() async throws {
        let (poll, _) = await heldPoll()
        await clock.advance(by: .seconds(5))
        let cut = clock.now

        network.setOnline(false)
        _ = await clock.run(until: { poll.hasEnded })

        #expect(poll.error as? DeliveryError == .offline)
        #expect(poll.endedAt == cut)
        #expect(clock.sleeperCount == 0)
    }

    @Test("a poll asked while offline fails with .offline at once, without holding")
    func offlinePollFailsAtOnce() async {
        network.setOnline(false)

        let (result, elapsed) = await clock.drive { [network] in
            try await network.events(for: "ana", after: .start, limit: 10, wait: .seconds(30))
        }

        #expect(result == .failure(.offline))
        #expect(elapsed == 0)
    }

    @Test("a caller's cancellation ends a held poll at once; a message arriving after finds no one waiting")
    func cancellationEndsHeldPoll() async throws {
        let (poll, _) = await heldPoll()
        await clock.advance(by: .seconds(5))
        let cancelledAt = clock.now

        poll.cancel()
        _ = await clock.run(until: { poll.hasEnded })

        #expect(poll.error as? DeliveryError == .cancelled)
        #expect(poll.answer == nil)
        #expect(poll.endedAt == cancelledAt)
        #expect(clock.sleeperCount == 0)
        try backend.send(BackendFixtures.message("m1"))
        #expect(await clock.run(until: { false }) == false)
        #expect(clock.now == cancelledAt)
    }

    @Test("feed requests are not round trips, nor backend requests")
    func feedRequestsAreNotCounted() async throws {
        try backend.send(BackendFixtures.message("m1"))
        let requests = backend.requests
        let receipt = try backend.receipt(.read, by: "ana", upTo: "m1")

        let (result, _) = await clock.drive { [network] in
            _ = try await network.feedEnd(for: "ana")
            _ = try await network.events(for: "ana", after: .start, limit: 10, wait: .zero)
            _ = try await network.snapshot(for: "ana", conversationLimit: 10, chats: ["c1"], messageLimit: 10)
            try await network.mark(receipt)
            return try await network.events(for: "ana", after: FeedPosition(2), limit: 10, wait: .seconds(1))
        }

        #expect(try result.get() == .batch(FeedBatch(events: [], end: FeedPosition(2), hasMore: false)))
        #expect(backend.marker(.read, of: "ana", in: "c1") == "m1")
        #expect(network.roundTrips == 0)
        #expect(backend.requests == requests)
    }

    @Test("feed traffic leaves a seeded run alone: with or without polls between them, the same sends fail alike")
    func feedTrafficKeepsOtherFates() async throws {
        func run(polling: Bool) async throws -> [String] {
            let (clock, backend, network) = try Self.flakyNetwork()
            var log: [String] = []
            for index in 0..<40 {
                if polling {
                    _ = await clock.drive { try await network.feedEnd(for: "me") }
                    _ = await clock.drive {
                        try await network.events(for: "me", after: .start, limit: 5, wait: .zero)
                    }
                    let end = backend.feedEndPosition(for: "me")
                    _ = await clock.drive {
                        try await network.events(for: "me", after: end, limit: 5, wait: .seconds(1))
                    }
                }
                let message = BackendFixtures.message("m\(index)", at: Double(index))
                let (result, elapsed) = await clock.drive { try await network.send(message) }
                log.append("m\(index) \(result.map(\.status)) \(elapsed) stored: \(backend.message(message.id) != nil)")
            }
            #expect(network.roundTrips == 40)
            return log
        }

        let quiet = try await run(polling: false)
        let listening = try await run(polling: true)

        #expect(listening == quiet)
        #expect(quiet.contains { $0.contains("failure") })
        #expect(quiet.contains { $0.contains("success") })
    }

    @Test("receipts leave the feed's polls alone: with or without receipts between them, the polls fare alike")
    func receiptsKeepThePollsFates() async throws {
        // The receipt sender writes while the feed's loop polls, from another task: if the two drew from one
        // generator, which reached it first in an instant would decide both fates (simulation seed 24 replayed one way
        // or the other, by the threads' timing).
        func run(marking: Bool) async throws -> [String] {
            let (clock, backend, network) = try Self.flakyNetwork()
            network.user = "ana"
            try backend.send(BackendFixtures.message("m1"))
            let receipt = try backend.receipt(.read, by: "ana", upTo: "m1")
            var log: [String] = []
            for index in 0..<40 {
                if marking { _ = await clock.drive { try await network.mark(receipt) } }
                let (result, elapsed) = await clock.drive {
                    try await network.events(for: "ana", after: .start, limit: 5, wait: .zero)
                }
                log.append("poll \(index) \(result.map { _ in "answered" }) \(elapsed)")
            }
            return log
        }

        let quiet = try await run(marking: false)
        let marking = try await run(marking: true)

        #expect(marking == quiet)
        #expect(quiet.contains { $0.contains("failure") })
        #expect(quiet.contains { $0.contains("success") })
    }

    /// A fresh backend behind a flaky network failing a fifth of its requests, on its own clock, seeded alike each
    /// time: two runs that make the same requests meet the same fates.
    private static func flakyNetwork() throws -> (ManualClock, InMemoryChatBackend, NetworkConditioner) {
        let clock = ManualClock()
        let backend = try BackendFixtures.backend()
        let network = NetworkConditioner(
            backend: backend, clock: clock, random: LockedRandom(seed: 9), profile: .flaky, failRate: 0.2)
        return (clock, backend, network)
    }
}
