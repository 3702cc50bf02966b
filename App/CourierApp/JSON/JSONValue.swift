import Foundation

/// A JSON value with ordered object keys, so the state document prints the same bytes on every run.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        // Objects are equal when they hold the same members, whatever their order (as JSON defines them).
        case (.object(let a), .object(let b)): sameMembers(a, b)
        default: false
        }
    }

    /// Whether `a` and `b` hold the same members in any order, each member of one matched to its own member of the
    /// other: a key named twice (which JSON text can hold) counts twice, so equality stays reflexive and symmetric.
    private static func sameMembers(_ a: [(String, JSONValue)], _ b: [(String, JSONValue)]) -> Bool {
        guard a.count == b.count else { return false }
        var unmatched = b
        for (key, value) in a {
            guard let match = unmatched.firstIndex(where: { $0.0 == key && $0.1 == value }) else { return false }
            unmatched.remove(at: match)
        }
        return true
    }

    /// Whether every number in the value is finite (a literal such as `1e400` reads as infinity).
    public var isFinite: Bool {
        switch self {
        case .null, .bool, .string: true
        case .number(let value): value.isFinite
        case .array(let values): values.allSatisfy(\.isFinite)
        case .object(let members): members.allSatisfy { $0.1.isFinite }
        }
    }

    /// An integer value.
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// A string value, or null.
    public static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    /// The compact JSON text.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { out += String(Int64(value)) } else { out += "\(value)" }
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // DEL and the C1 controls too: a terminal would obey them (CSI is 0x9B).
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
