import CourierDomain
import Foundation
import Testing

@testable import CourierMatrix

/// What the adapter reads from a homeserver's bodies, without one: events read leniently, answers mapped to the
/// errors the rest of Courier acts on, tokens kept opaque.
@Suite struct MatrixWireTests {
    private func event(_ json: String) throws -> MatrixEvent {
        try JSONDecoder().decode(MatrixEvent.self, from: Data(json.utf8))
    }

    @Test func aTextMessageCarriesCourierIdAndTheHomeserversTime() throws {
        let event = try event(
            #"{"type":"m.room.message","event_id":"$e1","sender":"@ben:hs","origin_server_ts":1700000000123,"#
                + #""content":{"msgtype":"m.text","body":"hi","courier.id":"3f9a01c2-77aa-4bcd-9e11-0123456789ab"}}"#)

        let message = try #require(event.message(in: "!room"))

        #expect(message.id == "3f9a01c2-77aa-4bcd-9e11-0123456789ab")
        #expect(message.senderID == "@ben:hs")
        #expect(message.text == "hi")
        #expect(message.timestamp == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(message.status == .sent)
    }

    @Test func aMessageFromAnotherClientIsNamedByItsEventIdAndAForgedIdIsIgnored() throws {
        let plain = try event(
            #"{"type":"m.room.message","event_id":"$e2","sender":"@ben:hs","origin_server_ts":5,"#
                + #""content":{"msgtype":"m.text","body":"from element"}}"#)
        let forged = try event(
            #"{"type":"m.room.message","event_id":"$e3","sender":"@ben:hs","origin_server_ts":5,"#
                + #""content":{"body":"x","courier.id":"$e2/../../etc"}}"#)

        #expect(plain.message(in: "!room")?.id == "$e2")
        #expect(forged.message(in: "!room")?.id == "$e3")
    }

    @Test func eventsOfAnotherShapeAreNotMessagesAndNeverStopTheAnswer() throws {
        let noBody = try event(
            #"{"type":"m.room.message","event_id":"$e","sender":"@b:hs","origin_server_ts":1,"content":{}}"#)
        let numberBody = try event(
            #"{"type":"m.room.message","event_id":"$e","sender":"@b:hs","origin_server_ts":1,"content":{"body":7}}"#)
        let state = try event(#"{"type":"m.room.name","state_key":"","content":{"name":"Ben"}}"#)
        let page = try JSONDecoder().decode(
            MessagesAnswer.self,
            from: Data(#"{"chunk":[{"no":"type"},{"type":"m.room.message","content":[]}],"end":"t1"}"#.utf8))

        #expect(noBody.message(in: "!r") == nil)
        #expect(numberBody.message(in: "!r") == nil)
        #expect(state.message(in: "!r") == nil)
        #expect(state.content.name == "Ben")
        #expect(page.chunk.count == 1)
        #expect(page.end == "t1")
    }

    @Test func aHomeserversErrorsMeanWhatCourierActsOn() {
        func error(_ status: Int, _ body: String) -> DeliveryError {
            MatrixTransport.error(of: .init(status: status, data: Data(body.utf8)))
        }

        #expect(error(401, #"{"errcode":"M_UNKNOWN_TOKEN","error":"Invalid token"}"#) == .unauthorized)
        #expect(
            error(429, #"{"errcode":"M_LIMIT_EXCEEDED","retry_after_ms":2500}"#)
                == .rateLimited(retryAfter: .milliseconds(2_500)))
        #expect(error(403, #"{"errcode":"M_FORBIDDEN"}"#) == .forbidden)
        #expect(error(404, "not json") == .notFound)
        #expect(error(400, #"{"errcode":"M_BAD_JSON","error":"bad"}"#).code == .validation)
        #expect(error(502, "") == .server(code: 502))
        #expect(error(500, "").isRetryable)
    }

    @Test func syncTokensStayOpaqueAndSynapsesStateTheirRoomStreamOrder() {
        let synapse = MatrixClient.position("s276_4_0_1_1_1_1_4_0_1_1_1_1_1")
        let other = MatrixClient.position("opaque-token")

        #expect(synapse.token == "s276_4_0_1_1_1_1_4_0_1_1_1_1_1")
        #expect(synapse.order == 276)
        #expect(MatrixClient.position("s21_0").precedes(synapse) == true)
        #expect(other.order == nil)
        #expect(MatrixClient.position("s_x").order == nil)
    }

    @Test func pathsEscapeRoomEventAndUserIds() {
        #expect(MatrixPath.join("v3", "rooms", "!a:hs", "event", "$b/c") == "v3/rooms/%21a%3Ahs/event/%24b%2Fc")
        #expect(MatrixClient.localPart("@me:localhost") == "me")
        #expect(MatrixClient.localPart("me") == "me")
    }
}
