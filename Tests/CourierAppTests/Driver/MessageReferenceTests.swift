import CourierDomain
import Testing

@testable import CourierApp

@Suite("MessageReference")
struct MessageReferenceTests {
    private let ids: [MessageID] = ["3674aaaa-1", "3674bbbb-2", "9f00cccc-3"]

    @Test("a plain number is a 1-based position, even when an id starts with the same digits")
    func positions() throws {
        #expect(try MessageReference.parse("1") == .position(1))
        #expect(try MessageReference.parse("3674") == .position(3674))
        #expect(try MessageReference.parse("1").resolve(among: ids, list: "queued messages") == "3674aaaa-1")
        #expect(try MessageReference.parse("3").resolve(among: ids, list: "queued messages") == "9f00cccc-3")
        // Given three messages, when the REF is 3674, then it is position 3674: none (never the id 3674…)
        #expect(throws: DriverError.failed("no message at position 3674 (the queued messages hold 3)")) {
            try MessageReference.parse("3674").resolve(among: ids, list: "queued messages")
        }
    }

    @Test("@ and 4 or more characters is an id prefix; a unique one names its message")
    func prefixes() throws {
        #expect(try MessageReference.parse("@9f00") == .idPrefix("9f00"))
        #expect(try MessageReference.parse("@9f00").resolve(among: ids, list: "queued messages") == "9f00cccc-3")
        #expect(try MessageReference.parse("@3674bb").resolve(among: ids, list: "queued messages") == "3674bbbb-2")
        #expect(throws: DriverError.failed("no message @abcd among the queued messages")) {
            try MessageReference.parse("@abcd").resolve(among: ids, list: "queued messages")
        }
    }

    @Test("an ambiguous prefix fails and lists every candidate")
    func ambiguous() {
        #expect(throws: DriverError.failed("@3674 is ambiguous: @3674aaaa-1, @3674bbbb-2")) {
            try MessageReference.parse("@3674").resolve(among: ids, list: "queued messages")
        }
    }

    @Test(
        "bad REFs are bad arguments",
        arguments: ["", "0", "-1", "@", "@abc", "abcd", "1x", "１", "@ab cd", "99999999999999999999"])
    func bad(_ text: String) {
        #expect(throws: DriverError.self) { try MessageReference.parse(text) }
        #expect(throws: DriverError.self) { try MessageReference.parse(text).resolve(among: ids, list: "x") }
    }

    @Test("listings show @ and the first 8 characters of the id, which parse back to the same message")
    func label() throws {
        let id = MessageID("01244eb5-7a9c-4c1e-9d2b-6f0e8a1b2c3d")
        #expect(MessageReference.label(id) == "@01244eb5")
        #expect(try MessageReference.parse(MessageReference.label(id)).resolve(among: [id], list: "x") == id)
    }
}
