import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite("RetryingMessageRepository")
struct RetryingMessageRepositoryTests {
    private let clock = ManualClock()
    private let connectivity = ManualConnectivity()
    /// No jitter, so clock times are exact.
    private let exact = RetryPolicy(jitter: 0)

    /// A retrying repository in front of a backend that plays `steps`, one a request.
    private func make(_ steps: [FakeMessageRepository.Step], policy: RetryPolicy? = nil, seed: UInt64 = 1)
        -> (RetryingMessageRepository, FakeMessageRepository)
    {
        let base = FakeMessageRepository(clock: clock, script: steps)
        let retrying = RetryingMessageRepository(
            base: base, policy: policy ?? exact, clock: clock, random: LockedRandom(seed: seed),
            connectivity: connectivity)
        return (retrying, base)
    }

    // MARK: - Branches

    @Test("branch 1: success on the first try returns at once, one attempt")
    func successFirstTry() async throws {
        let (retrying, base) = make([.answer])
        var attempts: [RetryAttempt] = []
        let token = retrying.observeAttempts { attempts.append($0) }

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(try result.get().status == .sent)
        #expect(elapsed == 0)
        #expect(base.requests == 1)
        #expect(attempts == [RetryAttempt(operation: .send(MessageID("m1")), number: 1, error: nil, nextDelay: nil)])
        token.cancel()
    }

    @Test("branch 5: a retryable failure is retried after 1 s and then succeeds")
    func retryThenSuccess() async throws {
        let (retrying, base) = make([.fail(.server(code: 503)), .answer])
        var attempts: [RetryAttempt] = []
        let token = retrying.observeAttempts { attempts.append($0) }

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(try result.get().id == MessageID("m1"))
        #expect(elapsed == 1)
        #expect(base.requests == 2)
        #expect(
            attempts == [
                RetryAttempt(
                    operation: .send(MessageID("m1")), number: 1, error: .server(code: 503), nextDelay: .seconds(1)),
                RetryAttempt(operation: .send(MessageID("m1")), number: 2, error: nil, nextDelay: nil),
            ])
        token.cancel()
    }

    @Test("branch 6: the budget is exhausted after 4 attempts and 1 + 2 + 4 s; the last error is thrown")
    func budgetExhausted() async {
        let (retrying, base) = make(Array(repeating: .fail(.server(code: 503)), count: 4))

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(result.map(\.id) == .failure(.server(code: 503)))
        #expect(elapsed == 7)
        #expect(base.requestTimes.map { $0.timeIntervalSince(BackendFixtures.now) } == [0, 1, 3, 7])
    }

    @Test("branch 2: a permanent error fails at once, without a retry")
    func permanentFailsAtOnce() async {
        let (retrying, base) = make([.fail(.validation(reason: "too long"))])

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(result.map(\.id) == .failure(.validation(reason: "too long")))
        #expect(elapsed == 0)
        #expect(base.requests == 1)
    }

    @Test("branch 3: unauthorized is not retried")
    func unauthorizedNotRetried() async {
        let (retrying, base) = make([.fail(.unauthorized)])

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(result.map(\.id) == .failure(.unauthorized))
        #expect(elapsed == 0)
        #expect(base.requests == 1)
    }

    @Test("branch 7: a hanging attempt is cut off after 10 s as a timeout and retried")
    func hangingAttemptTimesOut() async throws {
        let (retrying, base) = make([.hang, .answer])
        var attempts: [RetryAttempt] = []
        let token = retrying.observeAttempts { attempts.append($0) }

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(try result.get().id == MessageID("m1"))
        #expect(elapsed == 11)
        #expect(base.requestTimes.map { $0.timeIntervalSince(BackendFixtures.now) } == [0, 11])
        #expect(attempts.map(\.error) == [.timeout, nil])
        #expect(clock.sleeperCount == 0)
        token.cancel()
    }

    @Test("branch 8: going offline during a backoff wait ends it at once with .offline")
    func offlineDuringBackoff() async {
        let (retrying, base) = make([.fail(.timeout), .fail(.server(code: 502))])
        let attempt = DeliveryAttempt(on: clock) { try await retrying.send(BackendFixtures.message("m1")) }
        await clock.advance(by: .seconds(2))
        #expect(base.requests == 2)
        #expect(attempt.outcome == nil)

        // When the device goes offline 1 s into the 2 s wait before the second retry
        await clock.advance(by: .milliseconds(500))
        connectivity.set(online: false)
        await attempt.finish()

        #expect(attempt.outcome == .failure(.offline))
        #expect(clock.now.timeIntervalSince(BackendFixtures.now) == 2.5)
        #expect(base.requests == 2)
        #expect(clock.sleeperCount == 0)
    }

    @Test("branch 4: a failure while the device is offline is not retried")
    func failureWhileOffline() async {
        let (retrying, base) = make([.fail(.offline)])
        connectivity.set(online: false)

        let (result, elapsed) = await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }

        #expect(result.map(\.id) == .failure(.offline))
        #expect(elapsed == 0)
        #expect(base.requests == 1)
    }

    @Test("jitter comes from the seed: the same seed waits the same, within ± 10 % of 1 + 2 + 4 s")
    func seededJitter() async {
        func run(seed: UInt64) async -> TimeInterval {
            let (retrying, _) = make(
                Array(repeating: .fail(.server(code: 503)), count: 4), policy: .standard, seed: seed)
            return await clock.drive { try await retrying.send(BackendFixtures.message("m1")) }.elapsed
        }
        let first = await run(seed: 5)
        #expect(await run(seed: 5) == first)
        #expect(await run(seed: 6) != first)
        #expect((6.3...7.7).contains(first))
    }

    // MARK: - Batches and pages

    @Test("a batch that fails as a whole is retried as a whole")
    func batchRetried() async throws {
        let (retrying, base) = make([.fail(.timeout), .answer])
        let messages = [BackendFixtures.message("m1"), BackendFixtures.message("m2", at: 1)]
        var attempts: [RetryAttempt] = []
        let token = retrying.observeAttempts { attempts.append($0) }

        let (result, elapsed) = await clock.drive { try await retrying.sendBatch(messages) }

        #expect(try result.get().map { try $0.get().id } == messages.map(\.id))
        #expect(elapsed == 1)
        #expect(base.requests == 2)
        #expect(attempts.map(\.operation) == [.sendBatch(messages.map(\.id)), .sendBatch(messages.map(\.id))])
        token.cancel()
    }

    @Test("per-message retryable failures in a batch answer retry just those messages; permanent ones stay failed")
    func batchPartialRetry() async throws {
        let (retrying, base) = make([.batch([nil, .validation(reason: "bad"), .server(code: 503)]), .answer])
        let messages = (1...3).map { BackendFixtures.message("m\($0)", at: Double($0)) }

        let (result, elapsed) = await clock.drive { try await retrying.sendBatch(messages) }

        let answers = try result.get()
        #expect(answers.map { (try? $0.get())?.id } == [messages[0].id, nil, messages[2].id])
        #expect(answers[1] == .failure(.validation(reason: "bad")))
        #expect(base.batches.map { $0.map(\.id) } == [messages.map(\.id), [messages[2].id]])
        #expect(elapsed == 1)
    }

    @Test("branch 9: a cancelled caller stops at once, without another attempt")
    func callerCancelled() async {
        let (retrying, base) = make([.fail(.timeout)])
        var outcome: (any Error)?
        let task = clock.task {
            do { _ = try await retrying.send(BackendFixtures.message("m1")) } catch { outcome = error }
        }
        await clock.advance(by: .milliseconds(500))
        task.cancel()
        await task.value

        #expect(outcome as? DeliveryError == .cancelled)
        #expect(base.requests == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test("a page load is retried like a send")
    func pageRetried() async throws {
        let (retrying, base) = make([.fail(.server(code: 500)), .fail(.timeout), .answer])

        let (result, elapsed) = await clock.drive { try await retrying.messages(in: "c1", before: nil, limit: 50) }

        #expect(try result.get().hasMore == false)
        #expect(elapsed == 3)
        #expect(base.requests == 3)
    }

    // MARK: - Over the simulated network

    @Test("over a flaky network every message arrives exactly once: lost responses are resent as duplicates")
    func flakyNetworkExactlyOnce() async throws {
        let backend = try BackendFixtures.backend()
        let network = NetworkConditioner(
            backend: backend, clock: clock, random: LockedRandom(seed: 3), profile: .flaky)
        let retrying = RetryingMessageRepository(
            base: network, clock: clock, random: LockedRandom(seed: 4), connectivity: network)
        let messages = (0..<30).map { BackendFixtures.message("m\($0)", at: Double($0)) }

        var delivered = 0
        for message in messages {
            let (result, _) = await clock.drive { try await retrying.send(message) }
            if case .success = result { delivered += 1 }
        }

        #expect(delivered == 30)
        #expect(backend.messages(in: "c1").map(\.id) == messages.map(\.id))
        #expect(backend.duplicatesIgnored > 0)
        #expect(network.roundTrips > 30)
    }

    @Test("batches over the network: one round trip when nothing is lost")
    func batchOverNetwork() async throws {
        let backend = try BackendFixtures.backend()
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 3))
        let retrying = RetryingMessageRepository(
            base: network, clock: clock, random: LockedRandom(seed: 4), connectivity: network)
        let messages = (0..<25).map { BackendFixtures.message("m\($0)", at: Double($0)) }

        let (result, _) = await clock.drive { try await retrying.sendBatch(messages) }

        #expect(try result.get().count == 25)
        #expect(network.roundTrips == 1)
        #expect(backend.messageCount(in: "c1") == 25)
    }
}
