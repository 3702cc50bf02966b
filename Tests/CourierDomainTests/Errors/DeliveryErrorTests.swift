import CourierDomain
import Testing

@Suite struct DeliveryErrorTests {
    @Test func onlyTransientErrorsAreRetried() {
        let transient: [DeliveryError] = [.offline, .timeout, .server(code: 503)]
        #expect(transient.allSatisfy { $0.isRetryable })
        let permanent: [DeliveryError] = [.unauthorized, .forbidden, .validation(reason: "x"), .notFound, .unknown("?")]
        #expect(permanent.allSatisfy { !$0.isRetryable })
    }

    @Test func signInErrorsPauseRatherThanFail() {
        #expect(DeliveryError.unauthorized.requiresSignIn && DeliveryError.forbidden.requiresSignIn)
        #expect(!DeliveryError.timeout.requiresSignIn)
    }

    @Test func userMessagesAreStory24sTexts() {
        #expect(DeliveryError.offline.userMessage
            == "No internet connection. Message will be saved and you can retry later.")
        #expect(DeliveryError.unauthorized.userMessage == "Authentication error. Please sign in again.")
        #expect(DeliveryError.validation(reason: "bad").userMessage == "Message format error. Please try again.")
        #expect(DeliveryError.notFound.userMessage == "Conversation not found. Please refresh and try again.")
        #expect(DeliveryError.unknown("?").userMessage == "Failed to send message. Please try again.")
        #expect(DeliveryError.timeout.userMessage == "The connection timed out. Please try again.")
    }
}
