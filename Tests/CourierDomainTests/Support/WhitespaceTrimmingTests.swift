import CourierDomain
import Foundation
import Testing

/// `trimmingWhitespace()` stands in for Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)` in the targets
/// an app extension links: a message's text is stored as it trims, so the two must agree scalar for scalar.
@Suite("String.trimmingWhitespace")
struct WhitespaceTrimmingTests {
    /// Every scalar of the Basic Multilingual Plane but the surrogates, and a few beyond it.
    private static let scalars: [Unicode.Scalar] =
        (0...0xFFFF).compactMap(Unicode.Scalar.init) + [0x1_F600, 0x1_0000, 0x10_FFFF].compactMap(Unicode.Scalar.init)

    @Test("every scalar, alone and around text, trims as Foundation's whitespacesAndNewlines trims it")
    func agreesWithFoundationForEveryScalar() {
        var disagreements: [String] = []
        for scalar in Self.scalars {
            for text in ["\(scalar)", "\(scalar)a\(scalar)b\(scalar)", "a\(scalar)", "\(scalar)\(scalar)é"] {
                let ours = text.trimmingWhitespace()
                let foundation = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if ours != foundation { disagreements.append(String(scalar.value, radix: 16)) }
            }
        }
        #expect(disagreements.isEmpty, "scalars trimmed differently: \(disagreements.prefix(20))")
    }

    @Test("white space goes from both ends only; a combining mark after a space stays, as Foundation keeps it")
    func endsOnly() {
        #expect(" \t hi  there \n\u{2028}".trimmingWhitespace() == "hi  there")
        #expect("\u{A0}\u{3000}".trimmingWhitespace() == "")
        #expect(" \u{301}x".trimmingWhitespace() == "\u{301}x")
        #expect("x".trimmingWhitespace() == "x")
        #expect("".trimmingWhitespace() == "")
    }
}
