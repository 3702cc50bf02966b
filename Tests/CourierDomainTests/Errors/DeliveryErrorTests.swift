import CourierDomain
import Testing

@Suite struct DeliveryErrorTests {
    @Test func onlyTransientErrorsAreRetried() {
        let transient: [DeliveryError] = [.offline, .timeout, .server(code: 503)]
        #expect(transient.allSatisfy { $0.isRetryable })
        let permanent: [DeliveryError] = [
            .unauthorized, .forbidden, .validation(reason: "x"), .notFound, .unknown("?"),
        ]
        #expect(permanent.allSatisfy { !$0.isRetryable })
    }

    @Test func anExpiredSignInPausesButAForbiddenWriteFails() {
        #expect(DeliveryError.unauthorized.requiresSignIn)
        #expect(!DeliveryError.forbidden.requiresSignIn && !DeliveryError.forbidden.isRetryable)
        #expect(!DeliveryError.timeout.requiresSignIn)
    }
}
