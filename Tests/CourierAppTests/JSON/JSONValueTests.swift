import CourierApp
import Testing

@Suite("JSONValue.text")
struct JSONValueTests {
    @Test("compact text: integers without a fraction, other numbers as they are, keys in order")
    func compactText() {
        let value = JSONValue.object([
            ("z", .int(3)), ("a", .number(-1.5)), ("n", .null), ("t", .bool(true)), ("f", .bool(false)),
            ("list", .array([.int(0), .string("x"), .array([])])), ("empty", .object([])),
            ("big", .number(1e20)),
        ])
        #expect(value.text == #"{"z":3,"a":-1.5,"n":null,"t":true,"f":false,"list":[0,"x",[]],"empty":{},"big":1e+20}"#)
    }

    @Test("strings escape quotes, backslashes and control characters; other characters pass through")
    func stringEscapes() {
        let value = JSONValue.string("say \"hi\" \\ \n\r\t\u{01}\u{1F} é 😀 /")
        #expect(value.text == #""say \"hi\" \\ \n\r\t\u0001\u001f é 😀 /""#)
    }

    @Test("text parses back to the same value")
    func roundTrip() throws {
        let value = JSONValue.object([
            ("text", .string("line\none \"quoted\" \u{7} ✈️")), ("numbers", .array([.int(-7), .number(0.125)])),
            ("optional", .optional(nil)), ("present", .optional("yes")),
        ])
        #expect(try JSONParser.parse(value.text) == value)
    }

    @Test("objects are equal with the same members, whatever their order; a member more or a value changed is not")
    func objectEquality() {
        let ab = JSONValue.object([("a", .int(1)), ("b", .int(2))])
        let ba = JSONValue.object([("b", .int(2)), ("a", .int(1))])
        #expect(ab == ba)
        #expect(ab != JSONValue.object([("a", .int(1)), ("b", .int(3))]))
        #expect(ab != JSONValue.object([("a", .int(1))]))
        #expect(JSONValue.object([("a", .int(1))]) != ab)
        #expect(ab != JSONValue.object([("a", .int(1)), ("c", .int(2))]))
        #expect(JSONValue.int(1) != .string("1"))
    }

    @Test("an object that names a key twice equals itself, and equality goes both ways (found by fuzzing)")
    func duplicateKeys() throws {
        // Given objects whose text names a key twice
        let twice = try JSONParser.parse(#"{"a":[1],"a":{"c":"d"}}"#)
        let same = JSONValue.object([("a", .int(1)), ("a", .int(1))])
        let other = JSONValue.object([("a", .int(1)), ("a", .int(2))])

        // When they are compared, then each equals itself and its members in another order, in both directions
        #expect(twice == twice)
        #expect(twice == JSONValue.object([("a", .object([("c", .string("d"))])), ("a", .array([.int(1)]))]))
        #expect(other == JSONValue.object([("a", .int(2)), ("a", .int(1))]))
        // and a member named twice is not the same as two different ones, whichever side asks
        #expect(same != other)
        #expect(other != same)
    }
}
