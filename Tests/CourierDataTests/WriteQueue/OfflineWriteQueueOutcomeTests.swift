import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// One test per branch of the outcome policy (`WriteOutcomePolicy`'s doc comment).
@MainActor
@Suite struct OfflineWriteQueueOutcomeTests {
    private struct Unexpected: Error {}

    @Test func successRemovesTheWriteAndReportsIt() async throws {
        // Given one queued write
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let write = try fixture.enqueue(queue, "a")

        // When the backend takes it
        #expect(await queue.syncWhenOnline() == 1)

        // Then it left the queue durably and was reported delivered
        #expect(fixture.events.outcomes == [.delivered(write)])
        #expect(try fixture.open().count == 0)
    }

    @Test(arguments: [DeliveryError.timeout, .server(code: 503), .offline])
    func aRetryableFailureKeepsTheWriteAndRetriesWithExponentialBackoff(error: DeliveryError) async throws {
        // Given a write the backend fails twice before taking it
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let write = try fixture.enqueue(queue, "a")
        fixture.executor.script = [error, error]
        let start = fixture.clock.now

        // When the queue syncs (the test moves the clock through the backoffs)
        let synced = await fixture.syncAdvancingClock(queue)

        // Then it was retried after 1 s and 2 s more, and delivered
        #expect(synced == 1)
        #expect(fixture.executor.calls.count == 3)
        #expect(fixture.clock.now == start.addingTimeInterval(3))
        var failed = write
        failed.attempts = 1
        failed.lastError = error
        var failedTwice = failed
        failedTwice.attempts = 2
        #expect(
            fixture.events.outcomes == [
                .attemptFailed(failed, error, retryIn: .seconds(1)),
                .attemptFailed(failedTwice, error, retryIn: .seconds(2)),
                .delivered(failedTwice),
            ])
        #expect(try fixture.open().count == 0)
    }

    @Test func aRateLimitedWriteWaitsWhatTheBackendAskedBeforeItsRetry() async throws {
        // Given a write the backend answers "wait 45 s" once
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let write = try fixture.enqueue(queue, "a")
        let error = DeliveryError.rateLimited(retryAfter: .seconds(45))
        fixture.executor.script = [error]
        let start = fixture.clock.now

        // When the queue syncs
        #expect(await fixture.syncAdvancingClock(queue) == 1)

        // Then the retry came 45 s later, not after the 1 s backoff
        var failed = write
        failed.attempts = 1
        failed.lastError = error
        #expect(fixture.events.outcomes.first == .attemptFailed(failed, error, retryIn: .seconds(45)))
        #expect(fixture.clock.now == start.addingTimeInterval(45))
    }

    /// Queues `first` then `second`, scripts the backend to fail four times with `error`, and syncs.
    private func syncTwoWrites(
        _ first: String, _ second: String, failingFourTimesWith error: DeliveryError
    ) async throws -> (fixture: WriteQueueFixture, queue: OfflineWriteQueue, synced: Int?) {
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(holding: [first, second], script: Array(repeating: error, count: 4))
        return (fixture, queue, await fixture.syncAdvancingClock(queue))
    }

    @Test func aWriteThatKeepsFailingStaysQueuedWithItsAttemptsAndTheSyncGoesOn() async throws {
        // Given a write the backend keeps timing out, queued before another, when the queue syncs
        let (fixture, queue, synced) = try await syncTwoWrites("stuck", "fine", failingFourTimesWith: .timeout)

        // Then the first had its four attempts (3 retries: 1 s, 2 s, 4 s) and stays; the second went out
        #expect(synced == 1)
        #expect(fixture.executor.deliveredValues == ["fine"])
        let stuck = try #require(queue.allWrites.first)
        #expect(stuck.attempts == 4 && stuck.lastError == .timeout)
        #expect(fixture.events.outcomes.contains(.attemptFailed(stuck, .timeout, retryIn: nil)))
        #expect(try fixture.open().allWrites == [stuck])
    }

    @Test func beingOfflineAfterTheRetriesEndsTheSync() async throws {
        // Given two writes and a backend that answers offline, when the queue syncs
        let (fixture, queue, synced) = try await syncTwoWrites("a", "b", failingFourTimesWith: .offline)

        // Then the second write was not even tried: both wait for the next sync
        #expect(synced == 0)
        #expect(fixture.executor.calls.count == 4)
        #expect(queue.count == 2)
    }

    @Test func goingOfflineDuringABackoffEndsTheSync() async throws {
        // Given a write that fails once, and a device that goes offline meanwhile
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(holding: ["a"], script: [DeliveryError.timeout])
        let result = await fixture.startSync(queue)
        fixture.connectivity.set(online: false)

        // When the backoff ends
        _ = await fixture.finish(result)

        // Then no retry was made and the write waits
        #expect(result.value == 0)
        #expect(fixture.executor.calls.count == 1)
        #expect(queue.count == 1)
    }

    @Test func anErrorThatIsNotADeliveryErrorIsRetriedAsUnknown() async throws {
        // Given a write whose executor fails once with some other error
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(holding: ["a"], script: [Unexpected()])

        // When the queue syncs, then it was kept, retried and delivered
        #expect(await fixture.syncAdvancingClock(queue) == 1)
        #expect(fixture.executor.calls.count == 2)
        #expect(fixture.executor.calls.last?.lastError == .unknown("Unexpected()"))
    }

    @Test(arguments: [DeliveryError.unauthorized])
    func aSignInErrorKeepsEverythingAndPausesUntilSignInIsRenewed(error: DeliveryError) async throws {
        // Given two writes and an expired sign-in
        let fixture = WriteQueueFixture()
        let queue = try fixture.open(holding: ["a", "b"], script: [error])

        // When the queue syncs
        #expect(await queue.syncWhenOnline() == 0)

        // Then both are kept, the sync is paused and further syncs do nothing
        #expect(queue.count == 2)
        #expect(queue.isPausedForSignIn)
        #expect(fixture.events.outcomes.last == .pausedForSignIn(true))
        #expect(await queue.syncWhenOnline() == 0)
        #expect(fixture.executor.calls.count == 1)
        #expect(try fixture.open().allWrites.first?.lastError == error)

        // And once sign-in is renewed, both go out
        queue.signInRenewed()
        #expect(fixture.events.outcomes.last == .pausedForSignIn(false))
        #expect(await queue.syncWhenOnline() == 2)
        #expect(fixture.executor.deliveredValues == ["a", "b"])
    }

    @Test(arguments: [DeliveryError.validation(reason: "name too long"), .notFound, .forbidden])
    func aPermanentFailureRemovesTheWriteAndReportsIt(error: DeliveryError) async throws {
        // Given a write the backend refuses for good, before a good one
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let refused = try fixture.enqueue(queue, "bad")
        try fixture.enqueue(queue, "good")
        fixture.executor.script = [error]

        // When the queue syncs
        let synced = await queue.syncWhenOnline()

        // Then the refused write was removed and reported — not silently — and the next went out
        #expect(synced == 1)
        var reported = refused
        reported.attempts = 1
        reported.lastError = error
        #expect(fixture.events.outcomes.first == .rejected(reported, error))
        #expect(fixture.executor.deliveredValues == ["good"])
        #expect(try fixture.open().count == 0)
    }

    @Test func aWriteIsAbandonedAndReportedAfterTooManyAttempts() async throws {
        // Given a queue that allows 3 attempts in all, one per sync, and a backend that keeps failing
        let fixture = WriteQueueFixture(
            configuration: WriteQueueConfiguration(maxAttempts: 3), retryPolicy: .init(maxRetries: 0, jitter: 0))
        var queue = try fixture.open()
        let write = try fixture.enqueue(queue, "a")
        fixture.executor.script = Array(repeating: DeliveryError.server(code: 500), count: 3)

        // When it syncs three times (reopening in between, as across launches)
        #expect(await queue.syncWhenOnline() == 0)
        queue = try fixture.open()
        #expect(await queue.syncWhenOnline() == 0)
        #expect(queue.count == 1)
        queue = try fixture.open()
        #expect(await queue.syncWhenOnline() == 0)

        // Then the third failure removed it and reported it
        var abandoned = write
        abandoned.attempts = 3
        abandoned.lastError = .server(code: 500)
        #expect(fixture.events.outcomes.last == .abandoned(abandoned, .server(code: 500)))
        #expect(queue.count == 0)
        #expect(try fixture.open().count == 0)
    }
}
