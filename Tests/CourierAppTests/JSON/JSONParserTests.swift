import Testing

@testable import CourierApp

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: - Valid input

    @Test("literals, numbers and strings parse to their values")
    func scalars() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
        #expect(try JSONParser.parse("0") == .number(0))
        #expect(try JSONParser.parse("-12") == .number(-12))
        #expect(try JSONParser.parse("3.25") == .number(3.25))
        #expect(try JSONParser.parse("1e3") == .number(1_000))
        #expect(try JSONParser.parse("-2.5E-2") == .number(-0.025))
        #expect(try JSONParser.parse("\"text\"") == .string("text"))
        #expect(try JSONParser.parse("\"\"") == .string(""))
    }

    @Test("arrays and objects keep their order; whitespace around tokens is allowed")
    func containers() throws {
        let value = try JSONParser.parse(" { \"b\" : [1, 2 ,\n3], \"a\":{}, \"c\":[ ] }\t\r\n")
        #expect(
            value
                == .object([
                    ("b", .array([.number(1), .number(2), .number(3)])), ("a", .object([])), ("c", .array([])),
                ]))
        #expect(value["a"] == .object([]))
        #expect(value["missing"] == nil)
    }

    @Test("every escape of RFC 8259 decodes")
    func escapes() throws {
        let value = try JSONParser.parse(#""q\" b\\ s\/ \b\f\n\r\t u\u0041\u00e9""#)
        #expect(value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t uAé"))
    }

    @Test("a surrogate pair decodes to one scalar; non-ASCII text passes through")
    func surrogates() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\uD83D\uDE00!""#) == .string("😀!"))
        #expect(try JSONParser.parse("\"Just landed ✈️ 😀\"") == .string("Just landed ✈️ 😀"))
    }

    @Test("nesting up to the limit parses; one level more is an error")
    func nestingLimit() throws {
        let deepest = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(tooDeep) }
        let deepObjects = String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deepObjects) }
    }

    // MARK: - Invalid input

    @Test(
        "malformed text is a typed error, never a crash",
        arguments: [
            "", " ", "nul", "True", "+1", "01", "-", "1.", ".5", "1e", "1e+", "--1", "0x10", "NaN", "Infinity",
            "\"open", "\"bad \\x escape\"", "\"\\u12\"", "\"\\uZZZZ\"", "\"tab\tinside\"", "\"line\nbreak\"",
            "[1,]", "[1 2]", "[", "]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":}", "{", "}", "1 2", "[] []",
            "'single'", "\"\\", "[1,,2]",
        ])
    func invalid(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(
        "a lone or reversed surrogate is an error",
        arguments: [#""\ud83d""#, #""\ud83d x""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ude00\ud83d""#, #""\ud83d\n""#])
    func loneSurrogates(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test(
        "a \\u escape takes four hex digits and nothing else, no sign",
        arguments: [#""\u+041""#, #""\u-000""#, #""\u+0e9 x""#, #""\u 041""#, #""\u0x41""#])
    func signedUnicodeEscape(_ text: String) {
        // Given a \u escape whose four characters are not all hex digits
        // When it is parsed, then it is a typed error, not a character
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("the error says where the text went wrong")
    func errorPosition() {
        #expect(throws: JSONParseError(description: "expected , or ] at character 4")) {
            try JSONParser.parse("[1 2]")
        }
        #expect(throws: JSONParseError(description: "unexpected text after the value at character 3")) {
            try JSONParser.parse("1 2")
        }
    }
}
