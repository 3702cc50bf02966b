import CourierDomain
import CourierPresentation
import Testing

@Suite struct DeliveryErrorUserTextTests {
    @Test("each delivery error reads as the text the screens show")
    func userMessagesAreTheScreensTexts() {
        #expect(
            DeliveryError.offline.userMessage
                == "No internet connection. Message will be saved and you can retry later.")
        #expect(DeliveryError.unauthorized.userMessage == "Authentication error. Please sign in again.")
        #expect(DeliveryError.validation(reason: "bad").userMessage == "Message format error. Please try again.")
        #expect(DeliveryError.notFound.userMessage == "Conversation not found. Please refresh and try again.")
        #expect(DeliveryError.unknown("?").userMessage == "Failed to send message. Please try again.")
        #expect(DeliveryError.timeout.userMessage == "The connection timed out. Please try again.")
        #expect(
            DeliveryError.conflict.userMessage
                == "A different message was already sent with this ID. Delete it and send it again.")
    }
}
