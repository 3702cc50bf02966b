import Foundation

// Fuzz target `expect-json`: the driver's JSON reader (`JSONParser`, the values of `expect`), held to three
// properties: what it accepts is JSON (Foundation's reader accepts it too), what it reads prints as text that reads
// back as the same value, and an `expect` of a value it read holds against a document holding that value.
@testable import CourierApp

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpectJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).restText
    guard let value = try? JSONParser.parse(text) else { return 0 }
    guard value.isFinite else { return 0 }
    let foundation = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    require(foundation != nil, "JSONParser accepts what is not JSON: \(text.debugDescription)")
    let printed = value.text
    require((try? JSONParser.parse(printed)) == value, "\(printed) does not read back as what it prints")
    let literal = text.trimmingCharacters(in: .whitespaces)
    if literal == text.trimmingCharacters(in: .whitespacesAndNewlines), !literal.isEmpty,
        let expectation = try? Expectation.parse("a.b == " + literal)
    {
        require(expectation.expected == value, "expect reads \(literal.debugDescription) as another value")
        let document = JSONValue.object([("a", .object([("b", value)]))])
        require(expectation.check(document) == nil, "expect a.b == \(literal) fails on a document holding it")
    }
    return 0
}
