import CourierDomain
import Foundation
import Testing

/// Feed positions as a device stores and sends them back: ordered by number, written as a bare number.
@Suite("FeedPosition")
struct FeedPositionTests {
    @Test("positions order by their number, and start comes before every event")
    func order() {
        let positions = [FeedPosition(10), FeedPosition(2), .start, FeedPosition(UInt64.max), FeedPosition(9)]

        #expect(positions.sorted().map(\.value) == [0, 2, 9, 10, UInt64.max])
        #expect(FeedPosition.start < FeedPosition(1))
        #expect(!(FeedPosition(3) < FeedPosition(3)))
        #expect(FeedPosition(3) == FeedPosition(3))
    }

    @Test("a position is written as a bare JSON number and read back from one")
    func jsonIsABareNumber() throws {
        let data = try JSONEncoder().encode([FeedPosition(42), .start, FeedPosition(UInt64.max)])

        #expect(String(decoding: data, as: UTF8.self) == "[42,0,18446744073709551615]")
        #expect(try JSONDecoder().decode(FeedPosition.self, from: Data("7".utf8)) == FeedPosition(7))
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(FeedPosition.self, from: Data(#"{"value":7}"#.utf8))
        }
    }

    @Test("a batch's end is written as a bare number among its fields")
    func batchEndInJSON() throws {
        let batch = FeedBatch(events: [], end: FeedPosition(12), hasMore: false)

        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(batch)) as? [String: Any]

        #expect(object?["end"] as? Int == 12)
        #expect(try JSONDecoder().decode(FeedBatch.self, from: JSONEncoder().encode(batch)) == batch)
    }

    @Test("a position reads as its number")
    func description() {
        #expect(FeedPosition(1_234).description == "1234")
        #expect("\(FeedPosition.start)" == "0")
    }
}
