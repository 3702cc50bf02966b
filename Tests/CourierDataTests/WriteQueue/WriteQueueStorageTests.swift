import CourierDomain
import CourierTestSupport
import Foundation
import Testing

@testable import CourierData
@testable import CourierStore

/// The record format behind the storage seam, compaction, observation and backoff timing.
@MainActor
@Suite struct WriteQueueStorageTests {
    @Test func eachChangeAppendsRecordsThatReplayToTheSameQueue() async throws {
        // Given a queue that queues, coalesces, fails an attempt and delivers
        let fixture = WriteQueueFixture(retryPolicy: .init(maxRetries: 0, jitter: 0))
        let queue = try fixture.open()
        try fixture.enqueue(queue, "Ana", key: "name")
        let newest = try fixture.enqueue(queue, "Anna", key: "name")
        try fixture.enqueue(queue, "x")
        fixture.executor.script = [DeliveryError.server(code: 502)]
        #expect(await queue.syncWhenOnline() == 1)

        // Then the log holds one record per change, each versioned, in the order they happened
        let records = try fixture.storage.records.map(WriteQueueRecord.decode)
        #expect(records.map(\.operation) == [.put, .put, .put, .attempt, .remove])
        #expect(records.allSatisfy { $0.version == WriteQueueRecord.currentVersion })
        #expect(records[1].replaces == records[0].id)
        #expect(records[4].reason == .delivered)

        // And replaying them gives the queue as it is
        var failed = newest
        failed.attempts = 1
        failed.lastError = .server(code: 502)
        #expect(queue.allWrites == [failed])
        #expect(try fixture.open().allWrites == [failed])
    }

    @Test func compactionKeepsOnlyTheLiveWrites() async throws {
        // Given 100 writes queued and 99 of them delivered
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        for index in 0..<99 { try fixture.enqueue(queue, "\(index)") }
        #expect(await queue.syncWhenOnline() == 99)
        let last = try fixture.enqueue(queue, "last")

        // Then the dead records were compacted away and the live write survives a reopen
        #expect(fixture.storage.compactions >= 1)
        #expect(fixture.storage.records.count < 100)
        #expect(try fixture.open().allWrites == [last])
    }

    @Test func aReleasedObservationTokenStopsEvents() async throws {
        // Given an observer whose token is released
        let fixture = WriteQueueFixture()
        let queue = try fixture.open()
        let recorder = WriteQueueEventRecorder()
        var token: ObservationToken? = queue.observe { recorder.record($0) }
        try fixture.enqueue(queue, "a")
        #expect(recorder.events == [.pendingCountChanged(1)])
        _ = token
        token = nil

        // When more happens, then it hears nothing more
        try fixture.enqueue(queue, "b")
        #expect(recorder.events == [.pendingCountChanged(1)])
    }

    @Test func retriesWait1s2s4sAndResyncsDoubleFrom30sUpToFiveMinutes() {
        let retries = RetryPolicy.writeQueueRetries
        #expect(retries.maxRetries == 3)
        #expect((1...3).map { retries.backoff(beforeRetry: $0, unit: 0.9) } == [.seconds(1), .seconds(2), .seconds(4)])
        let resyncs = (1...7).map { RetryPolicy.writeQueueResyncs.backoff(beforeRetry: $0, unit: 0.9) }
        #expect(resyncs == [30, 60, 120, 240, 300, 300, 300].map { .seconds($0) })
        let jittered = RetryPolicy(initialDelay: .seconds(1), jitter: 0.5, maxDelay: .seconds(2))
        #expect(jittered.backoff(beforeRetry: 3, unit: 0.75) == .seconds(2.5), "capped first, then jittered")
    }

    @Test func theOutcomePolicyCoversEveryDeliveryError() {
        let cases: [(DeliveryError, WriteOutcomePolicy)] = [
            (.offline, .retry), (.timeout, .retry), (.server(code: 500), .retry), (.unknown("?"), .retry),
            (.rateLimited(retryAfter: .seconds(30)), .retry), (.unreachable, .retry), (.unauthorized, .pauseForSignIn),
            (.forbidden, .reject), (.validation(reason: "bad"), .reject), (.notFound, .reject), (.conflict, .reject),
        ]
        for (error, expected) in cases { #expect(WriteOutcomePolicy(after: error) == expected) }
    }
}
