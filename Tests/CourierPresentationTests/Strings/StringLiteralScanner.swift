/// Finds the string literals of Swift source, with the line each starts on — their text outside interpolations
/// (`"\(count) messages"` reads " messages"), nested literals inside an interpolation found too. Comments are
/// skipped. Enough of Swift's grammar for the Presentation sources: plain and multi-line literals, escapes,
/// interpolations with their own parentheses and literals, `//` and `/* */` comments.
struct StringLiteralScanner {
    /// A literal found: its line (1-based) and its text outside interpolations.
    struct Literal: Equatable {
        let line: Int
        let text: String
    }

    private let characters: [Character]
    private var index = 0
    private var line = 1
    private(set) var literals: [Literal] = []

    /// Scans `source`.
    init(_ source: String) {
        characters = Array(source)
        scanCode(untilCloseParen: false)
    }

    private var current: Character? { index < characters.count ? characters[index] : nil }

    private func peek(_ offset: Int) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func advance() {
        if current == "\n" { line += 1 }
        index += 1
    }

    /// Code: until the end, or (in an interpolation) the `)` that closes it.
    private mutating func scanCode(untilCloseParen: Bool) {
        var depth = 0
        while let character = current {
            if character == "/", peek(1) == "/" {
                while let next = current, next != "\n" { advance() }
            } else if character == "/", peek(1) == "*" {
                advance()
                advance()
                while current != nil, !(current == "*" && peek(1) == "/") { advance() }
                advance()
                advance()
            } else if character == "\"" {
                scanLiteral()
            } else if character == "(" {
                depth += 1
                advance()
            } else if character == ")" {
                if untilCloseParen, depth == 0 {
                    advance()
                    return
                }
                depth -= 1
                advance()
            } else {
                advance()
            }
        }
    }

    /// A literal, from its opening quote(s).
    private mutating func scanLiteral() {
        let start = line
        let multiline = peek(1) == "\"" && peek(2) == "\""
        for _ in 0..<(multiline ? 3 : 1) { advance() }
        var text = ""
        while let character = current {
            if character == "\\" {
                if peek(1) == "(" {
                    advance()
                    advance()
                    scanCode(untilCloseParen: true)
                } else {
                    advance()
                    advance()
                }
            } else if character == "\"", !multiline || (peek(1) == "\"" && peek(2) == "\"") {
                for _ in 0..<(multiline ? 3 : 1) { advance() }
                break
            } else {
                text.append(character)
                advance()
            }
        }
        literals.append(Literal(line: start, text: text))
    }
}
