import CourierData
import CourierDomain
import Foundation
import Testing

/// The status ↔ `DeliveryError` mapping, branch by branch, and cursors that survive the trip bit for bit.
@Suite struct HTTPWireTests {
    @Test(arguments: [
        (401, DeliveryError.unauthorized), (403, .forbidden), (404, .notFound), (409, .conflict), (408, .timeout),
        (429, .rateLimited(retryAfter: .seconds(1))), (500, .server(code: 500)), (503, .server(code: 503)),
        (400, .validation(reason: "bad")), (422, .validation(reason: "bad")), (302, .unknown("unexpected status 302")),
    ])
    func statusesMapToDeliveryErrors(status: Int, expected: DeliveryError) {
        #expect(HTTPWire.error(status: status, body: HTTPWire.ErrorBody(error: "x", reason: "bad")) == expected)
    }

    @Test func retryableStatusesAreExactlyTimeoutsAndServerErrors() {
        let retryable = (400...599).filter { HTTPWire.error(status: $0, body: nil).isRetryable }
        #expect(retryable == [408, 429] + Array(500...599))
    }

    @Test(arguments: [
        DeliveryError.unauthorized, .forbidden, .notFound, .conflict, .validation(reason: "empty"), .server(code: 503),
        .rateLimited(retryAfter: .seconds(1)),
    ])
    func theServersStatusMeansTheSameErrorToTheClient(error: DeliveryError) {
        let status = HTTPWire.status(for: error)
        #expect(HTTPWire.error(status: status, body: HTTPWire.body(for: error)) == error)
    }

    @Test func aTimeoutBehindTheServerIsAGatewayTimeoutTheClientRetries() {
        #expect(HTTPWire.status(for: .timeout) == 504)
        #expect(HTTPWire.error(status: 504, body: HTTPWire.body(for: .timeout)).isRetryable)
    }

    @Test func cursorsComeBackBitForBit() throws {
        // Given a timestamp with no short decimal form
        let time = Date(timeIntervalSinceReferenceDate: 788_948_952.441_761_1 + 1e-7)
        let cursor = MessageCursor(timestamp: time, id: "a~b")

        // When it goes through its text form, then it is the same cursor, and malformed ones are refused
        #expect(HTTPWire.messageCursor(HTTPWire.text(of: cursor)) == cursor)
        let conversation = ConversationCursor(lastActivity: time, id: "c1")
        #expect(HTTPWire.conversationCursor(HTTPWire.text(of: conversation)) == conversation)
        #expect(HTTPWire.messageCursor("nonsense") == nil)
        #expect(HTTPWire.messageCursor("12~") == nil)
        #expect(HTTPWire.messageCursor("inf~x") == nil)
    }
}
