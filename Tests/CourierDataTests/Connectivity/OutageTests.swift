import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A server outage is a connectivity state: messages wait queued and go when the backend answers again.
@MainActor
@Suite struct OutageTests {
    @Test func aSendDuringAnOutageIsQueuedAtOnceNeverFailed() async throws {
        // Given a backend that refuses every connection
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.isRefusing = true
        let start = fixture.clock.now

        // When the user sends
        let id = try fixture.compose("during the outage")
        await fixture.settle()

        // Then it is queued within one trip (no retry chain), not failed; the client says the backend is unreachable
        let message = try #require(fixture.client.outbox.pending.first { $0.id == id })
        #expect(message.status == .queued)
        #expect(message.attempts == 0)
        #expect(fixture.clock.now.timeIntervalSince(start) < 0.5)
        #expect(!fixture.client.reachability.isReachable)
        #expect(!fixture.client.connectivity.isOnline)
        #expect(!fixture.client.connectivity.isBackendReachable)
        #expect(fixture.stored(in: "c1").isEmpty)
    }

    @Test func theFirstAnswerAfterTheOutageSendsTheQueueByItselfUnderTheAutomaticPolicy() async throws {
        // Given three messages queued in two chats during an outage, under the automatic policy
        let fixture = try OutageFixture(policy: .automatic)
        await fixture.settle()
        fixture.network.isRefusing = true
        let ids = [try fixture.compose("one"), try fixture.compose("two", in: "c2"), try fixture.compose("three")]
        await fixture.settle()
        #expect(fixture.client.outbox.pending.map(\.status) == [.queued, .queued, .queued])

        // When the server answers again
        await fixture.clock.advance(by: .seconds(20))
        fixture.network.isRefusing = false
        let up = fixture.clock.now
        _ = await fixture.clock.run(until: { fixture.client.outbox.pending.isEmpty }, limit: .seconds(120))

        // Then within one probe interval (≤ 30 s) everything went out, once each, in compose order
        #expect(fixture.client.outbox.pending.isEmpty)
        #expect(fixture.stored(in: "c1") == [ids[0], ids[2]])
        #expect(fixture.stored(in: "c2") == [ids[1]])
        #expect(fixture.clock.now.timeIntervalSince(up) <= 31)
        #expect(fixture.client.reachability.isReachable)
    }

    @Test func probesBackOffToThirtySecondsNeverCloserAndAPathChangeProbesFastAgain() async throws {
        // Given a backend down for thirty minutes
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.isRefusing = true
        try fixture.compose("wake the outage up")
        await fixture.settle()
        let reachability = fixture.client.reachability

        // When the minutes pass
        await fixture.clock.advance(by: .seconds(10))
        let early = reachability.probesSent
        await fixture.clock.advance(by: .seconds(1_790))
        let total = reachability.probesSent

        // Then it probed quickly at first (1 s, 2 s, 4 s …), then about every 30 s and never closer than its backoff
        #expect((2...4).contains(early), "\(early) probes in the first 10 s")
        #expect((55...80).contains(total), "\(total) probes in 30 minutes")
        let waits = (1...200).map { _ in reachability.delay(beforeProbe: 9) }
        #expect(waits.allSatisfy { $0 <= 30 && $0 >= 24 })

        // And a change of the device's path starts again from the fast probe
        fixture.network.setOnline(false)
        fixture.network.setOnline(true)
        await fixture.clock.idle()
        let next = try #require(reachability.nextProbe)
        #expect(next.timeIntervalSince(fixture.clock.now) <= 1.2)
    }

    @Test func inTheBackgroundNothingIsProbedAndTheReturnProbesAtOnce() async throws {
        // Given an outage noticed by a send
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.isRefusing = true
        try fixture.compose("queued")
        await fixture.settle()

        // When the app is in the background for ten minutes, while the server comes back
        fixture.client.enterBackground()
        let before = fixture.client.reachability.probesSent
        await fixture.clock.advance(by: .seconds(600))
        fixture.network.isRefusing = false
        await fixture.clock.advance(by: .seconds(60))
        #expect(fixture.client.reachability.probesSent == before)
        #expect(!fixture.client.reachability.isReachable)

        // Then the return probes at once and finds it
        fixture.client.enterForeground()
        let reachability = fixture.client.reachability
        _ = await fixture.clock.run(until: { reachability.isReachable }, limit: .seconds(5))
        #expect(fixture.client.reachability.probesSent == before + 1)
        #expect(fixture.client.reachability.isReachable)
    }

    @Test func theServerDyingMidSendAllKeepsWhatItAcknowledgedAndQueuesTheRestInOrder() async throws {
        // Given thirty messages queued offline (two batches of at most 25)
        let fixture = try OutageFixture(policy: .manual)
        await fixture.settle()
        fixture.network.setOnline(false)
        let ids = try (1...30).map { try fixture.compose("m\($0)") }
        fixture.network.setOnline(true)
        await fixture.settle()

        // When Send All runs and the server dies once the first batch is on its way back
        fixture.clock.task { [fixture] in
            try? await fixture.clock.sleep(for: .milliseconds(15))
            fixture.network.isRefusing = true
        }
        let sending = fixture.clock.task { await fixture.client.sendAll() }
        _ = await fixture.clock.run(until: { sending.work.isFinished })

        // Then the first 25 are stored and sent, the last 5 are queued (not failed), in order
        #expect(fixture.stored(in: "c1") == Array(ids.prefix(25)))
        #expect(fixture.client.outbox.pending.map(\.id) == Array(ids.suffix(5)))
        #expect(fixture.client.outbox.pending.allSatisfy { $0.status == .queued })

        // And once the server is back, the Send All still holds (manual policy, no second press): it completes the
        // conversation by itself, in compose order, each message once
        #expect(fixture.client.outbox.sendAllRequested)
        fixture.network.isRefusing = false
        _ = await fixture.clock.run(
            until: { fixture.client.outbox.pending.isEmpty && !fixture.client.isBusy }, limit: .seconds(60))
        #expect(fixture.stored(in: "c1") == ids)
        #expect(!fixture.client.outbox.sendAllRequested)
        #expect(fixture.backend.duplicatesIgnored == 0)
    }

    @Test func aServerThatFlapsForAMinuteStoresEachMessageOnceInOrder() async throws {
        // Given the automatic policy and a server that goes down and up every 3 s for a minute
        let fixture = try OutageFixture(policy: .automatic)
        await fixture.settle()
        fixture.network.flap(every: .seconds(3), for: .seconds(60))
        var composed: [ConversationID: [MessageID]] = [:]
        var changes: [Date] = []
        let clock = fixture.clock
        let token = fixture.client.reachability.observe { _ in changes.append(clock.now) }

        // When the user writes every 1.5 s in two chats meanwhile
        for index in 0..<40 {
            let conversation: ConversationID = index.isMultiple(of: 2) ? "c1" : "c2"
            composed[conversation, default: []].append(try fixture.compose("m\(index)", in: conversation))
            await fixture.clock.advance(by: .milliseconds(1_500))
        }
        _ = await fixture.clock.run(until: { fixture.client.outbox.pending.isEmpty }, limit: .seconds(300))

        // Then every message is stored once, each chat in compose order, and none failed on the way; what the screens
        // call reachable changed often, but never twice within a second
        withExtendedLifetime(token) {}
        #expect(changes.count >= 4)
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 1 })
        #expect(fixture.client.outbox.pending.isEmpty)
        #expect(fixture.stored(in: "c1") == composed["c1"])
        #expect(fixture.stored(in: "c2") == composed["c2"])
        #expect(fixture.backend.duplicatesIgnored == 0)
    }

    @Test func aThirtyMinuteOutageWith200QueuedAcrossTenChatsLosesAndDuplicatesNothing() async throws {
        // Given ten chats and 200 messages written during a thirty-minute outage, under the automatic policy
        let fixture = try OutageFixture(policy: .automatic, conversations: 10)
        await fixture.settle()
        fixture.network.isRefusing = true
        var composed: [ConversationID: [MessageID]] = [:]
        for index in 0..<200 {
            let conversation = ConversationID("c\(index % 10 + 1)")
            composed[conversation, default: []].append(try fixture.compose("m\(index)", in: conversation))
            await fixture.clock.advance(by: .seconds(9))
        }
        #expect(fixture.client.outbox.pending.allSatisfy { $0.status == .queued })

        // When the server answers again
        fixture.network.isRefusing = false
        _ = await fixture.clock.run(until: { fixture.client.outbox.pending.isEmpty }, limit: .seconds(600))

        // Then all 200 are stored once, each chat in compose order, and the probing stayed within its backoff
        for (conversation, ids) in composed { #expect(fixture.stored(in: conversation) == ids) }
        #expect(fixture.backend.duplicatesIgnored == 0)
        #expect(fixture.client.reachability.probesSent <= 80)
    }
}

/// A server that accepts connections but never answers is reachable: the timeouts and the retry budget apply, then
/// `failed`, as before.
@MainActor
@Suite struct HangingServerTests {
    @Test func aServerThatNeverAnswersEndsFailedThroughTheRetryBudgetAndStaysReachable() async throws {
        // Given a backend that takes every request and never answers
        let clock = ManualClock()
        let backend = FakeMessageRepository(clock: clock, script: Array(repeating: .hang, count: 4))
        let client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: backend,
            conversations: FakeConversationRepository(), users: FakeUserRepository(),
            connectivity: ManualConnectivity(online: true), clock: clock, ids: .seeded(2), policy: .manual,
            fileSystem: SimulatedFileSystem())
        let start = clock.now

        // When the user sends
        let id = try client.outbox.compose(text: "into the void", in: "c1").id
        _ = await clock.run(until: { !client.isBusy })

        // Then four attempts of 10 s with 1 s, 2 s, 4 s between, then failed — and the backend still counts as there
        #expect(client.outbox.pending.first { $0.id == id }?.status == .failed)
        #expect(client.outbox.pending.first?.lastError == .timeout)
        #expect(clock.now.timeIntervalSince(start) >= 40)
        #expect(client.reachability.isReachable)
        #expect(client.reachability.probesSent == 0)
        client.close()
    }
}
