import CourierData
import CourierDomain
import Foundation
import Testing

@Suite("RetryPolicy")
struct RetryPolicyTests {
    private let policy = RetryPolicy.standard

    @Test("backoff doubles: 1 s, 2 s, 4 s before retries 1, 2, 3 (no jitter at the middle draw)")
    func backoffDoubles() {
        #expect((1...3).map { policy.backoff(beforeRetry: $0, unit: 0.5) } == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test("jitter stretches a wait by at most ± 10 %")
    func jitterBounds() {
        let shortest = policy.backoff(beforeRetry: 2, unit: 0).timeInterval
        let longest = policy.backoff(beforeRetry: 2, unit: 0.999_999).timeInterval
        #expect(abs(shortest - 1.8) < 1e-9)
        #expect(longest < 2.2 && longest > 2.199)
    }

    @Test("branch 2: a permanent error fails at once with that error")
    func permanentError() {
        for error in [DeliveryError.validation(reason: "x"), .notFound, .unknown("x")] {
            #expect(policy.decision(after: error, failedAttempts: 1, isOnline: true, unit: 0.5) == .fail(error))
        }
    }

    @Test("branch 4b: an unreachable backend fails at once, online or not, with .unreachable: no retry budget spent")
    func unreachableBackend() {
        for online in [true, false] {
            #expect(
                policy.decision(after: .unreachable, failedAttempts: 1, isOnline: online, unit: 0.5)
                    == .fail(.unreachable))
        }
    }

    @Test("branch 3: a sign-in error is never retried, nor is a forbidden write")
    func signInError() {
        for error in [DeliveryError.unauthorized, .forbidden] {
            #expect(policy.decision(after: error, failedAttempts: 1, isOnline: true, unit: 0.5) == .fail(error))
        }
    }

    @Test("branch 4: a retryable error while the device is offline fails at once with .offline")
    func deviceOffline() {
        for error in [DeliveryError.offline, .timeout, .server(code: 503)] {
            #expect(policy.decision(after: error, failedAttempts: 1, isOnline: false, unit: 0.5) == .fail(.offline))
        }
    }

    @Test("branch 5 and 6: retryable errors are retried three times, then the last error is final")
    func budget() {
        let decisions = (1...4).map {
            policy.decision(after: .server(code: 503), failedAttempts: $0, isOnline: true, unit: 0.5)
        }
        #expect(
            decisions == [
                .retry(after: .seconds(1)), .retry(after: .seconds(2)), .retry(after: .seconds(4)),
                .fail(.server(code: 503)),
            ])
        for error in [DeliveryError.timeout, .offline] {
            let decision = policy.decision(after: error, failedAttempts: 1, isOnline: true, unit: 0.5)
            #expect(decision == .retry(after: .seconds(1)))
        }
    }

    @Test("branch 5: a rate-limited answer waits at least the Retry-After it names, never less than the backoff")
    func rateLimited() {
        let long = DeliveryError.rateLimited(retryAfter: .seconds(30))
        #expect(
            policy.decision(after: long, failedAttempts: 1, isOnline: true, unit: 0.5) == .retry(after: .seconds(30)))
        let short = DeliveryError.rateLimited(retryAfter: .zero)
        #expect(
            policy.decision(after: short, failedAttempts: 2, isOnline: true, unit: 0.5) == .retry(after: .seconds(2)))
        #expect(policy.decision(after: long, failedAttempts: 4, isOnline: true, unit: 0.5) == .fail(long))
    }

    @Test("the defaults are the product's: 3 retries, 10 s per attempt")
    func defaults() {
        #expect(policy.maxRetries == 3)
        #expect(policy.attemptTimeout == .seconds(10))
        #expect(policy.jitter == 0.1)
    }
}
