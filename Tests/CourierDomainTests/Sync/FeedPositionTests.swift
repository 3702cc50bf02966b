import CourierDomain
import Foundation
import Testing

/// Feed positions as a device stores and sends them back: a backend's token, kept as it came; a numbered one (Courier's
/// own backends) written as a bare number, as every earlier record holds it.
@Suite("FeedPosition")
struct FeedPositionTests {
    @Test("numbered positions state their order, and start comes before every event")
    func numberedOrder() {
        #expect(FeedPosition.start.precedes(FeedPosition(1)) == true)
        #expect(FeedPosition(10).precedes(FeedPosition(9)) == false)
        #expect(FeedPosition(3).precedes(FeedPosition(3)) == false)
        #expect(FeedPosition(3) == FeedPosition(3))
        #expect(FeedPosition(UInt64.max).number == UInt64.max)
    }

    @Test("a token without an order is never compared, and has no number")
    func opaqueTokens() {
        let token = FeedPosition(token: "s21_4_0_1_1_1_1_4_0_1_1_1_1_1")

        #expect(token.precedes(FeedPosition(1)) == nil)
        #expect(FeedPosition(1).precedes(token) == nil)
        #expect(token.number == nil)
        #expect(token.description == "s21_4_0_1_1_1_1_4_0_1_1_1_1_1")
        #expect(token != FeedPosition(token: "s22_4_0_1_1_1_1_4_0_1_1_1_1_1"))
    }

    @Test("a token that states an order is compared by it, though its text is not a number")
    func orderedTokens() {
        let earlier = FeedPosition(token: "s20_9", order: 20)
        let later = FeedPosition(token: "s21_1", order: 21)

        #expect(earlier.precedes(later) == true)
        #expect(later.precedes(earlier) == false)
        #expect(later.number == nil)
    }

    @Test("a numbered position is written as a bare JSON number and read back from one")
    func jsonIsABareNumber() throws {
        let data = try JSONEncoder().encode([FeedPosition(42), .start, FeedPosition(UInt64.max)])

        #expect(String(decoding: data, as: UTF8.self) == "[42,0,18446744073709551615]")
        #expect(try JSONDecoder().decode(FeedPosition.self, from: Data("7".utf8)) == FeedPosition(7))
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(FeedPosition.self, from: Data(#"{"value":7}"#.utf8))
        }
    }

    @Test("a token round-trips through JSON with its order, or as a bare string without one")
    func tokensInJSON() throws {
        let plain = FeedPosition(token: "t1-1_0")
        let ordered = FeedPosition(token: "s5_1", order: 5)

        let data = try JSONEncoder().encode([plain, ordered])

        #expect(try JSONDecoder().decode([FeedPosition].self, from: data) == [plain, ordered])
        #expect(String(decoding: try JSONEncoder().encode(plain), as: UTF8.self) == #""t1-1_0""#)
    }

    @Test("a batch's end is written as a bare number among its fields, and a batch without gaps reads as before")
    func batchEndInJSON() throws {
        let batch = FeedBatch(events: [], end: FeedPosition(12), hasMore: false)
        let cut = FeedBatch(events: [], end: FeedPosition(token: "s9"), hasMore: false, gaps: ["!room"])

        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(batch)) as? [String: Any]

        #expect(object?["end"] as? Int == 12)
        #expect(object?["gaps"] == nil)
        #expect(try JSONDecoder().decode(FeedBatch.self, from: JSONEncoder().encode(batch)) == batch)
        #expect(try JSONDecoder().decode(FeedBatch.self, from: JSONEncoder().encode(cut)) == cut)
    }

    @Test("a position reads as its token")
    func description() {
        #expect(FeedPosition(1_234).description == "1234")
        #expect("\(FeedPosition.start)" == "0")
    }
}
