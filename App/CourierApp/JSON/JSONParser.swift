/// A small, strict JSON reader (RFC 8259) for `expect` values and tests of `--json` output.
public struct JSONParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    /// Parses `text` as one JSON value; anything after it is an error.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(scalars: Array(text.unicodeScalars))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.scalars.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private func failure(_ message: String) -> JSONParseError {
        JSONParseError(description: "\(message) at character \(index + 1)")
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func skipWhitespace() {
        while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { index += 1 }
    }

    private mutating func expect(_ word: String) throws(JSONParseError) {
        for scalar in word.unicodeScalars {
            guard current == scalar else { throw failure("expected \(word)") }
            index += 1
        }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < 256 else { throw failure("nested too deeply") }
        switch current {
        case "n":
            try expect("null")
            return .null
        case "t":
            try expect("true")
            return .bool(true)
        case "f":
            try expect("false")
            return .bool(false)
        case "\"": return .string(try string())
        case "[": return try array(depth: depth)
        case "{": return try object(depth: depth)
        case .some(let scalar) where scalar == "-" || ("0"..."9").contains(scalar): return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if current == "]" {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try value(depth: depth + 1))
            skipWhitespace()
            if current == "," {
                index += 1
                continue
            }
            if current == "]" {
                index += 1
                return .array(values)
            }
            throw failure("expected , or ]")
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if current == "}" {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == "\"" else { throw failure("expected a key") }
            let key = try string()
            skipWhitespace()
            guard current == ":" else { throw failure("expected :") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            if current == "," {
                index += 1
                continue
            }
            if current == "}" {
                index += 1
                return .object(members)
            }
            throw failure("expected , or }")
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        var out = String.UnicodeScalarView()
        while let scalar = current {
            index += 1
            switch scalar {
            case "\"": return String(out)
            case "\\":
                guard let escaped = current else { throw failure("unfinished escape") }
                index += 1
                switch escaped {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u": out.append(try unicodeEscape())
                default: throw failure("unknown escape")
                }
            case _ where scalar.value < 0x20: throw failure("control character in a string")
            default: out.append(scalar)
            }
        }
        throw failure("unterminated string")
    }

    /// Four hex digits. Each is checked: `UInt32(_:radix:)` alone would also take a sign (`\u+041`, `\u-000`).
    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= scalars.count else { throw failure("bad \\u escape") }
        var value: UInt32 = 0
        for scalar in scalars[index..<index + 4] {
            guard scalar.isASCII, let digit = UInt32(String(scalar), radix: 16) else { throw failure("bad \\u escape") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func unicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            guard current == "\\" else { throw failure("lone surrogate") }
            index += 1
            guard current == "u" else { throw failure("lone surrogate") }
            index += 1
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("bad surrogate pair") }
            let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(combined) else { throw failure("bad surrogate pair") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw failure("lone surrogate") }
        return scalar
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = index
        if current == "-" { index += 1 }
        guard let first = current, ("0"..."9").contains(first) else { throw failure("bad number") }
        if first == "0" { index += 1 } else { while let digit = current, ("0"..."9").contains(digit) { index += 1 } }
        if current == "." {
            index += 1
            guard let digit = current, ("0"..."9").contains(digit) else { throw failure("bad number") }
            while let digit = current, ("0"..."9").contains(digit) { index += 1 }
        }
        if current == "e" || current == "E" {
            index += 1
            if current == "+" || current == "-" { index += 1 }
            guard let digit = current, ("0"..."9").contains(digit) else { throw failure("bad number") }
            while let digit = current, ("0"..."9").contains(digit) { index += 1 }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        guard let value = Double(text) else { throw failure("bad number") }
        return .number(value)
    }
}
