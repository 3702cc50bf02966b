import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct DurableOutboxTests {
    let clock = ManualClock()
    let store = InMemoryOutboxStore()
    let connectivity: ManualConnectivity
    let repository: FakeMessageRepository
    var events: [OutboxEvent] = []

    init() {
        connectivity = ManualConnectivity(online: true)
        repository = Self.backend(clock: clock)
    }

    /// A backend the outbox sends to: every request takes 20 ms on the clock and, once on its way, answers even when
    /// its caller is cancelled; the outbox never loads pages.
    static func backend(clock: ManualClock) -> FakeMessageRepository {
        FakeMessageRepository(clock: clock, serves: .sends, latency: .milliseconds(20), finishesWhenCancelled: true)
    }

    func makeOutbox(policy: SendPolicy = .manual, batchSize: Int = 25) -> DurableOutbox {
        DurableOutbox(
            store: store, repository: repository, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me", policy: policy, limits: .init(batchSize: batchSize))
    }

    func statuses(_ events: [OutboxEvent]) -> [String] {
        events.map { event in
            switch event {
            case .changed(let message): "\(message.text):\(message.status.rawValue)"
            case .deleted(let id): "deleted:\(store.message(id)?.text ?? id.rawValue.prefix(4).description)"
            case .pausedForSignIn(let paused): "paused:\(paused)"
            }
        }
    }

    /// Runs `work` while moving the clock from deadline to deadline until it is done.
    func drive(_ work: @escaping @MainActor () async throws -> Void) async throws {
        let outcome = OutboxTestOutcome()
        clock.task {
            do { try await work() } catch { outcome.error = error }
            outcome.done = true
        }
        let finished = await clock.run(until: { outcome.done })
        #expect(finished, "the work finished")
        if let error = outcome.error { throw error }
    }

    // MARK: - Compose

    @Test func anOnlineMessageShowsSendingAtOnceThenSent() async {
        let outbox = makeOutbox()
        var seen: [OutboxEvent] = []
        let token = outbox.observe { seen.append($0) }
        let message = try? outbox.compose(text: "hello", in: "c2")
        #expect(message?.status == .sending)
        #expect(store.message(message!.id)?.status == .sending, "durable before compose returns")
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(statuses(seen) == ["hello:sending", "hello:sent"])
        #expect(store.count == 0)
        #expect(repository.stored.map(\.text) == ["hello"])
        token.cancel()
    }

    @Test func anOfflineMessageIsQueuedDurablyAndNotSent() async {
        connectivity.set(online: false)
        let outbox = makeOutbox()
        let message = try? outbox.compose(text: "tunnel", in: "c2")
        #expect(message?.status == .queued)
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.all().map(\.text) == ["tunnel"])
        #expect(repository.requests == 0)
    }

    @Test func emptyOrOversizedTextIsRefusedAndChangesNothing() {
        let outbox = makeOutbox()
        #expect(throws: InputError.emptyText) { try outbox.compose(text: "  \n ", in: "c2") }
        let long = String(repeating: "x", count: 4_001)
        #expect(throws: InputError.textTooLong(characters: 4_001, limit: 4_000)) {
            try outbox.compose(text: long, in: "c2")
        }
        #expect(store.count == 0)
        #expect(!outbox.isBusy)
    }

    // MARK: - Send All

    @Test func sendAllDeliversEveryConversationInComposeOrder() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox()
        for (index, conversation) in ["c1", "c2", "c1", "c3", "c2"].enumerated() {
            try outbox.compose(text: "m\(index)", in: ConversationID(conversation))
            await clock.advance(by: .seconds(1))
        }
        connectivity.set(online: true)
        #expect(store.count == 5, "manual policy: nothing goes by itself")
        try await drive { await outbox.sendAll() }
        #expect(store.count == 0)
        let byConversation = Dictionary(grouping: repository.stored, by: \.conversationID)
        #expect(byConversation["c1"]?.map(\.text) == ["m0", "m2"])
        #expect(byConversation["c2"]?.map(\.text) == ["m1", "m4"])
        #expect(repository.requests == 3, "one ordered batch per conversation")
    }

    @Test func aFailedMessageStaysFailedAndTheRestGoOn() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox(batchSize: 1)
        let first = try outbox.compose(text: "one", in: "c2")
        let second = try outbox.compose(text: "two", in: "c2")
        let third = try outbox.compose(text: "three", in: "c2")
        repository.failures[second.id] = [.validation(reason: "bad")]
        connectivity.set(online: true)
        try await drive { await outbox.sendAll() }
        #expect(repository.stored.map(\.id) == [first.id, third.id])
        #expect(store.all().map(\.id) == [second.id])
        #expect(store.message(second.id)?.status == .failed)
        #expect(store.message(second.id)?.lastError == .validation(reason: "bad"))
    }

    @Test func sendAllWhileOfflineDoesNothing() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox()
        try outbox.compose(text: "wait", in: "c2")
        try await drive { await outbox.sendAll() }
        #expect(store.all().map(\.status) == [.queued])
        #expect(repository.requests == 0)
    }

    // MARK: - Failures

    @Test func goingOfflineMidSendPutsTheMessageBackInTheQueue() async throws {
        let outbox = makeOutbox()
        repository.fail(with: .offline)
        let message = try outbox.compose(text: "cut off", in: "c2")
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.message(message.id)?.status == .queued)
        #expect(store.message(message.id)?.attempts == 0, "being cut off is not the message's fault")
        #expect(store.message(message.id)?.lastError == .offline)
    }

    @Test func aMessageComposedJustBeforeGoingOfflineIsNotLeftSending() async throws {
        let outbox = makeOutbox()
        let message = try outbox.compose(text: "racing", in: "c2")
        connectivity.set(online: false)
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.message(message.id)?.status == .queued)
    }

    @Test func aMessageWaitingBehindASendCutOffByAFlickerIsNotLeftSending() async throws {
        // Given one message on its way and a second composed behind it in the same chat (simulation seed 517)
        let outbox = makeOutbox()
        repository.fail(with: .offline)
        let first = try outbox.compose(text: "on its way", in: "c2")
        _ = await clock.run(until: { repository.requests == 1 })
        let second = try outbox.compose(text: "right behind", in: "c2")

        // When the connection drops and is back at once while the first is in flight, which it cuts off
        connectivity.set(online: false)
        connectivity.set(online: true)
        _ = await clock.run(until: { !outbox.isBusy })

        // Then neither is left sending with nothing sending it: both wait in the queue for Send All
        #expect(store.message(first.id)?.status == .queued)
        #expect(store.message(second.id)?.status == .queued)
        repository.fail(with: nil)
        try await drive { await outbox.sendAll() }
        #expect(repository.stored.map(\.text) == ["on its way", "right behind"])
    }

    @Test func aSendCancelledBelowTheOutboxWaitsInTheQueueWithAnUnknownOutcome() async throws {
        // Given a request that is cancelled on its way (a transport cut by a connection that dropped and came back)
        let outbox = makeOutbox()
        repository.fail(with: .cancelled)

        // When a message is sent and nothing answers it
        let message = try outbox.compose(text: "cut below", in: "c2")
        _ = await clock.run(until: { !outbox.isBusy })

        // Then it is queued, not left sending with no lane to send it, and known to have an unknown outcome
        #expect(store.message(message.id)?.status == .queued)
        #expect(store.message(message.id)?.lastError == .unanswered)
        #expect(store.message(message.id)?.outcomeUnknown == true)
        repository.fail(with: nil)
        try await drive { await outbox.sendAll() }
        #expect(repository.stored.map(\.text) == ["cut below"])
    }

    @Test func retryAfterFailureSendsWithTheSameID() async throws {
        let outbox = makeOutbox()
        let message = try outbox.compose(text: "flaky", in: "c2")
        repository.failures[message.id] = [.server(code: 503)]
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.message(message.id)?.status == .failed)
        try await drive { try await outbox.send(message.id) }
        #expect(store.count == 0)
        #expect(repository.stored.map(\.id) == [message.id])
    }

    @Test func retryGoesAloneThroughTheOneAttemptRepository() async throws {
        // Given a failed message and an outbox whose hand-started sends have a repository of their own
        let once = Self.backend(clock: clock)
        let outbox = DurableOutbox(
            store: store, repository: repository, manualRepository: once, connectivity: connectivity, clock: clock,
            ids: .seeded(7), currentUser: "me")
        let message = try outbox.compose(text: "flaky", in: "c2")
        repository.failures[message.id] = [.server(code: 503)]
        _ = await clock.run(until: { !outbox.isBusy })
        let automaticRequests = repository.requests

        // When the user retries it and the one attempt fails
        once.failures[message.id] = [.server(code: 503)]
        try await drive { try await outbox.send(message.id) }

        // Then exactly one request went through the one-attempt repository, and the message is failed again
        #expect(once.requests == 1)
        #expect(repository.requests == automaticRequests)
        #expect(store.message(message.id)?.status == .failed)
    }

    @Test func retryOfAnUnknownOrSentMessageIsRefused() async throws {
        let outbox = makeOutbox()
        await #expect(throws: InputError.unknownMessage("nope")) { try await outbox.send(MessageID("nope")) }
        let message = try outbox.compose(text: "fine", in: "c2")
        _ = await clock.run(until: { !outbox.isBusy })
        await #expect(throws: InputError.unknownMessage(message.id)) { try await outbox.send(message.id) }
    }

    @Test func anExpiredSignInPausesAndKeepsEveryMessageUntilRenewed() async throws {
        let outbox = makeOutbox()
        repository.fail(with: .unauthorized)
        let first = try outbox.compose(text: "a", in: "c2")
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(outbox.isPausedForSignIn)
        let second = try outbox.compose(text: "b", in: "c3")
        #expect(second.status == .queued, "nothing is sent while paused")
        #expect(store.all().map(\.status) == [.queued, .queued], "none marked failed")
        repository.fail(with: nil)
        outbox.signInRenewed()
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.count == 0)
        #expect(repository.stored.map(\.id) == [first.id, second.id])
    }

    @Test func aStuckConversationHoldsUpNoOther() async throws {
        let outbox = makeOutbox()
        repository.latencyByConversation["c2"] = .seconds(60)
        let stuck = try outbox.compose(text: "slow head", in: "c2")
        let behind = try outbox.compose(text: "behind it in c2", in: "c2")
        let other = try outbox.compose(text: "elsewhere", in: "c3")
        await clock.advance(by: .seconds(1))
        #expect(repository.stored.map(\.id) == [other.id], "c3 is not held up by c2's slow head")
        #expect(store.all().map(\.id) == [stuck.id, behind.id])
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(repository.stored.map(\.id) == [other.id, stuck.id, behind.id], "c2 keeps its own order")
    }

    // MARK: - Launch

    func interruptedStore() -> InMemoryOutboxStore {
        let start = clock.now
        return InMemoryOutboxStore(messages: [
            Message(
                id: "waiting", conversationID: "c2", senderID: "me", text: "typed offline", timestamp: start,
                status: .queued),
            Message(
                id: "cut-off", conversationID: "c2", senderID: "me", text: "on its way when the app died",
                timestamp: start.addingTimeInterval(1), status: .sending),
        ])
    }

    @Test func sendsCutOffByTheAppDyingGoOutAtLaunchWhateverThePolicy() async throws {
        let store = interruptedStore()
        let outbox = DurableOutbox(
            store: store, repository: repository, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me", policy: .manual)
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(repository.stored.map(\.id.rawValue) == ["cut-off"])
        #expect(store.all().map(\.id.rawValue) == ["waiting"], "the manual policy still waits for the user")
    }

    @Test func offlineAtLaunchTheCutOffSendsWaitInTheQueue() async throws {
        connectivity.set(online: false)
        let store = interruptedStore()
        let outbox = DurableOutbox(
            store: store, repository: repository, connectivity: connectivity, clock: clock, ids: .seeded(7),
            currentUser: "me", policy: .manual)
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(repository.requests == 0)
        #expect(store.all().map(\.status) == [.queued, .queued])
    }

    // MARK: - Automatic policy

    @Test func automaticPolicySendsOnReconnectExactlyOnceDespiteFlicker() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox(policy: .automatic, batchSize: 1)
        for index in 0..<5 { try outbox.compose(text: "m\(index)", in: "c2") }
        connectivity.set(online: true)
        connectivity.set(online: false)
        connectivity.set(online: true)
        connectivity.set(online: false)
        connectivity.set(online: true)
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.count == 0)
        #expect(repository.stored.map(\.text) == ["m0", "m1", "m2", "m3", "m4"])
    }

    @Test func manualPolicyWaitsForTheUser() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox(policy: .manual)
        try outbox.compose(text: "held", in: "c2")
        connectivity.set(online: true)
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.all().map(\.status) == [.queued])
        outbox.policy = .automatic
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.count == 0)
    }

    @Test func automaticPolicyGivesAStrugglingMessageThreeRoundsThenFails() async throws {
        let outbox = makeOutbox(policy: .automatic)
        let doomed = try outbox.compose(text: "doomed", in: "c2")
        repository.failures[doomed.id] = [.server(code: 503), .server(code: 503), .server(code: 503)]
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.message(doomed.id)?.status == .failed)
        #expect(store.message(doomed.id)?.attempts == 3)
        #expect(repository.stored.isEmpty)
    }

    @Test func automaticPolicyDeliversOnALaterRound() async throws {
        let outbox = makeOutbox(policy: .automatic)
        let message = try outbox.compose(text: "second time lucky", in: "c2")
        repository.failures[message.id] = [.timeout]
        let start = clock.now
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.count == 0)
        #expect(repository.stored.map(\.id) == [message.id])
        #expect(clock.now.timeIntervalSince(start) >= 5, "the second round waits for the round pause")
    }

    @Test func manualPolicyFailsAfterOneRound() async throws {
        let outbox = makeOutbox(policy: .manual)
        let message = try outbox.compose(text: "once", in: "c2")
        repository.failures[message.id] = [.timeout]
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(store.message(message.id)?.status == .failed)
        #expect(store.message(message.id)?.lastError == .timeout)
    }

    @Test func renewingSignInSendsTheHeldMessagesButNotTheOfflineQueue() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox(policy: .manual)
        let queuedOffline = try outbox.compose(text: "offline", in: "c3")
        connectivity.set(online: true)
        repository.fail(with: .unauthorized)
        let held = try outbox.compose(text: "held", in: "c2")
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(outbox.isPausedForSignIn)
        repository.fail(with: nil)
        outbox.signInRenewed()
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(repository.stored.map(\.id) == [held.id])
        #expect(store.all().map(\.id) == [queuedOffline.id], "the manual policy still waits for the user")
    }

    // MARK: - Edit and delete

    @Test func editAndDeleteWorkOnQueuedMessagesOnly() async throws {
        connectivity.set(online: false)
        let outbox = makeOutbox()
        let queued = try outbox.compose(text: "typo", in: "c2")
        let kept = try outbox.compose(text: "keep", in: "c2")
        try outbox.edit(queued.id, text: "fixed")
        #expect(store.message(queued.id)?.text == "fixed")
        #expect(throws: InputError.emptyText) { try outbox.edit(queued.id, text: "") }
        #expect(store.message(queued.id)?.text == "fixed")
        try outbox.delete(queued.id)
        #expect(store.all().map(\.id) == [kept.id])
        #expect(throws: InputError.unknownMessage(queued.id)) { try outbox.delete(queued.id) }
    }

    @Test func rapidFireOnlineArrivesInOrderOnce() async throws {
        let outbox = makeOutbox()
        for index in 0..<25 { try outbox.compose(text: "r\(index)", in: "c2") }
        _ = await clock.run(until: { !outbox.isBusy })
        #expect(repository.stored.map(\.text) == (0..<25).map { "r\($0)" })
        #expect(store.count == 0)
    }
}
