import Testing

@testable import CourierApp

@Suite("Expectation")
struct ExpectationTests {
    private let document = JSONValue.object([
        ("network", .object([("online", .bool(true)), ("profile", .string("wifi"))])),
        ("banner", .object([("text", .string("You're offline. 2 messages queued.")), ("queuedCount", .int(2))])),
        (
            "chat",
            .object([
                ("conversationId", .null),
                (
                    "messages",
                    .array([
                        .object([("text", .string("first")), ("status", .string("sent"))]),
                        .object([("text", .string("second")), ("status", .string("queued"))]),
                    ])
                ),
                ("failed", .array([.string("id-1")])),
            ])
        ),
        ("grid", .array([.array([.int(1), .int(2)]), .array([.int(3)])])),
    ])

    private func check(_ line: String) throws -> String? {
        try Expectation.parse(line).check(document)
    }

    // MARK: - Paths

    @Test("paths are dot-separated keys with [i] indexes; negative indexes count from the end")
    func pathParsing() throws {
        #expect(
            try Expectation.parsePath("chat.messages[-1].text")
                == [.key("chat"), .key("messages"), .index(-1), .key("text")])
        #expect(try Expectation.parsePath("grid[1][0]") == [.key("grid"), .index(1), .index(0)])
        #expect(try Expectation.parsePath("network") == [.key("network")])
    }

    @Test("resolving: first, last, nested and out-of-range positions")
    func resolving() throws {
        #expect(try check("chat.messages[0].text == first") == nil)
        #expect(try check("chat.messages[-1].text == \"second\"") == nil)
        #expect(try check("chat.messages[-2].status == sent") == nil)
        #expect(try check("grid[1][0] == 3") == nil)
        #expect(try check("grid[0][-1] == 2") == nil)
        #expect(try check("chat.messages[2].text == first") == "chat.messages[2].text is missing")
        #expect(try check("chat.messages[-3].text == first") == "chat.messages[-3].text is missing")
    }

    @Test("a missing path fails the expectation, whatever the operator")
    func missingPath() throws {
        #expect(try check("network.speed == null") == "network.speed is missing")
        #expect(try check("network.online.value == true") == "network.online.value is missing")
        #expect(try check("banner[0] != 1") == "banner[0] is missing")
        #expect(try check("nothing contains x") == "nothing is missing")
    }

    @Test(
        "malformed paths are bad arguments",
        arguments: ["a[", "a[x]", "a[1", "a]", "a[1]x", ".a", "a..b", "a.", "[0]x", "a.[0]"])
    func badPaths(_ path: String) {
        #expect(throws: DriverError.self) { try Expectation.parse("\(path) == 1") }
    }

    // MARK: - Operators

    @Test("== and != compare whole JSON values, null included")
    func equality() throws {
        #expect(try check("banner.queuedCount == 2") == nil)
        #expect(try check("banner.queuedCount != 3") == nil)
        #expect(try check("network.online == true") == nil)
        #expect(try check("network.online != false") == nil)
        #expect(try check("chat.conversationId == null") == nil)
        #expect(try check("banner.queuedCount == \"2\"") == "banner.queuedCount is 2, expected == \"2\"")
        #expect(try check("banner.queuedCount != 2") == "banner.queuedCount is 2, expected != 2")
        #expect(try check("chat.failed == [\"id-1\"]") == nil)
    }

    @Test("<, <=, >, >= order numbers and strings")
    func ordering() throws {
        #expect(try check("banner.queuedCount < 3") == nil)
        #expect(try check("banner.queuedCount <= 2") == nil)
        #expect(try check("banner.queuedCount > 1") == nil)
        #expect(try check("banner.queuedCount >= 2") == nil)
        #expect(try check("banner.queuedCount > 2") == "banner.queuedCount is 2, expected > 2")
        #expect(try check("banner.queuedCount < 2") == "banner.queuedCount is 2, expected < 2")
        #expect(try check("network.profile > wi") == nil)
        #expect(try check("network.profile <= wifi") == nil)
        #expect(try check("network.profile >= x") == "network.profile is \"wifi\", expected >= \"x\"")
    }

    @Test("ordering values of different kinds is a failure that says why")
    func incomparable() throws {
        #expect(
            try check("network.online < 1")
                == "network.online is true, which cannot be compared with < 1")
        #expect(
            try check("banner.queuedCount >= \"2\"")
                == "banner.queuedCount is 2, which cannot be compared with >= \"2\"")
    }

    @Test("contains: a substring, an array element, an object key")
    func contains() throws {
        #expect(try check("banner.text contains \"2 messages\"") == nil)
        #expect(try check("banner.text contains offline.") == nil)
        #expect(try check("chat.failed contains \"id-1\"") == nil)
        #expect(try check("network contains profile") == nil)
        #expect(try check("banner.text contains online") != nil)
        #expect(try check("chat.failed contains id-2") != nil)
        #expect(try check("network contains speed") != nil)
        #expect(try check("banner.queuedCount contains 2") != nil)
    }

    // MARK: - Values

    @Test("the value is a JSON literal; a bare word (or any non-JSON text) is taken as a string")
    func values() throws {
        #expect(try Expectation.parse("a == wifi").expected == .string("wifi"))
        #expect(try Expectation.parse("a == \"wifi\"").expected == .string("wifi"))
        #expect(try Expectation.parse("a == 3").expected == .number(3))
        #expect(try Expectation.parse("a == true").expected == .bool(true))
        #expect(try Expectation.parse("a == null").expected == .null)
        #expect(try Expectation.parse("a == two words").expected == .string("two words"))
        #expect(
            try Expectation.parse("a == \"You're offline. 2 messages queued.\"").expected
                == .string("You're offline. 2 messages queued."))
    }

    @Test(
        "a line without PATH OP VALUE, or with an unknown operator, is bad arguments",
        arguments: ["", "a", "a ==", "a === 1", "a = 1", "a has 1", "a =~ x"])
    func badLines(_ line: String) {
        #expect(throws: DriverError.self) { try Expectation.parse(line) }
    }

    @Test("every operator is recognised")
    func everyOperator() throws {
        for op in Expectation.Operator.allCases {
            #expect(try Expectation.parse("a \(op.rawValue) 1").op == op)
        }
    }
}
