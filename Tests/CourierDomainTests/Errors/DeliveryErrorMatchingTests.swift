import CourierDomain
import Foundation
import Testing

/// `DeliveryError` is a struct an app matches without an exhaustive `switch` over its kinds, so a later version can
/// add one; its JSON is the enum's of earlier builds, which records of those builds hold.
@Suite struct DeliveryErrorMatchingTests {
    /// Every kind, and the JSON the enum `DeliveryError` of earlier builds wrote for it (keys sorted).
    static let encoded: [(DeliveryError, String)] = [
        (.offline, #"{"offline":{}}"#),
        (.unreachable, #"{"unreachable":{}}"#),
        (.timeout, #"{"timeout":{}}"#),
        (.server(code: 502), #"{"server":{"code":502}}"#),
        (.unauthorized, #"{"unauthorized":{}}"#),
        (.forbidden, #"{"forbidden":{}}"#),
        (.rateLimited(retryAfter: .seconds(30)), #"{"rateLimited":{"retryAfter":[1,11553255926290448384]}}"#),
        (.validation(reason: #"too "rude""#), #"{"validation":{"reason":"too \"rude\""}}"#),
        (.notFound, #"{"notFound":{}}"#),
        (.conflict, #"{"conflict":{}}"#),
        (.unknown("boom"), #"{"unknown":{"_0":"boom"}}"#),
    ]

    @Test func anErrorIsCaughtAndSwitchedOnByValueAsAnEnumCaseWas() {
        // Given a request that fails with a timeout, and one that fails with another error
        func failing(_ error: any Error) throws { throw error }

        // When each is caught by value, then switched on
        var caught: [String] = []
        for error in [DeliveryError.timeout, DeliveryError.server(code: 503)] {
            do {
                try failing(error)
            } catch DeliveryError.timeout {
                caught.append("timeout")
            } catch let other as DeliveryError {
                switch other {
                case .offline: caught.append("offline")
                case .server(code: 503): caught.append("503")
                default: caught.append("other")
                }
            } catch {
                caught.append("not a delivery error")
            }
        }

        // Then each matched its own clause, the payload compared too
        #expect(caught == ["timeout", "503"])
        #expect(DeliveryError.server(code: 500) != .server(code: 503))
    }

    @Test func aKindIsMatchedByCodeWhateverItCarriesAndItsValuesAreProperties() {
        // Given errors that carry values
        let server = DeliveryError.server(code: 502)
        let limited = DeliveryError.rateLimited(retryAfter: .seconds(7))
        let refused = DeliveryError.validation(reason: "blank")

        // When an app asks for their codes and values
        let codes = [server, limited, refused, .offline].map(\.code)

        // Then the codes match whatever the errors carry, and the values are there by name
        #expect(codes == [.server, .rateLimited, .validation, .offline])
        #expect(codes.map(\.description) == ["server", "rateLimited", "validation", "offline"])
        #expect(server.statusCode == 502 && DeliveryError.offline.statusCode == nil)
        #expect(limited.retryAfter == .seconds(7) && server.retryAfter == nil)
        #expect(refused.reason == "blank" && DeliveryError.unknown("?").reason == "?" && server.reason == nil)
    }

    @Test func everyKindEncodesAsTheEnumOfEarlierBuildsAndReadsItsRecords() throws {
        // Given the JSON earlier builds wrote for every kind
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys

        for (error, json) in Self.encoded {
            // When it is read, and the error written again
            let read = try JSONDecoder().decode(DeliveryError.self, from: Data(json.utf8))
            let written = String(decoding: try encoder.encode(error), as: UTF8.self)

            // Then both ways agree with the old bytes
            #expect(read == error)
            #expect(written == json)
        }
    }

    @Test func aKindTheBuildDoesNotKnowIsRefusedNotGuessed() {
        // Given JSON naming a kind this build has no code for
        let json = Data(#"{"quotaExceeded":{}}"#.utf8)

        // When it is read, then it is a decoding error
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeliveryError.self, from: json) }
    }
}
