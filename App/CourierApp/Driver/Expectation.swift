/// An `expect PATH OP VALUE` line: a path into the state document, a comparison and a JSON literal.
struct Expectation {
    enum Operator: String, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains
    }

    enum PathStep: Equatable {
        case key(String)
        case index(Int)
    }

    let path: String
    let steps: [PathStep]
    let op: Operator
    let expected: JSONValue

    /// Parses the arguments of `expect` (everything after the word).
    static func parse(_ arguments: String) throws(DriverError) -> Expectation {
        let parts = arguments.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 3 else { throw .badArguments("usage: expect PATH OP VALUE") }
        guard let op = Operator(rawValue: parts[1]) else {
            throw .badArguments("unknown operator \(parts[1]) (use ==, !=, <, <=, >, >= or contains)")
        }
        let literal = parts[2].trimmingCharacters(in: .whitespaces)
        let expected = (try? JSONParser.parse(literal)) ?? .string(literal)
        guard expected.isFinite else {
            throw .badArguments("\(literal) is out of range (numbers must be finite, at most about 1.8e308)")
        }
        return Expectation(path: parts[0], steps: try parsePath(parts[0]), op: op, expected: expected)
    }

    static func parsePath(_ path: String) throws(DriverError) -> [PathStep] {
        var steps: [PathStep] = []
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(segment)
            let name = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(name.count)
            steps.append(.key(String(name)))
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close])
                else { throw .badArguments("bad path \(path)") }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
            // Every segment names a key: `a..b`, `a.` and `a.[0]` are typos, not paths to the parent.
            guard rest.isEmpty, !name.isEmpty, !name.contains("]") else { throw .badArguments("bad path \(path)") }
        }
        return steps
    }

    /// The value at the path, or nil when it is missing.
    func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for step in steps {
            switch (step, current) {
            case (.key(let key), .object):
                guard let next = current[key] else { return nil }
                current = next
            case (.index(let index), .array(let values)):
                let position = index < 0 ? values.count + index : index
                guard values.indices.contains(position) else { return nil }
                current = values[position]
            default:
                return nil
            }
        }
        return current
    }

    /// Checks the expectation; returns nil when it holds, else why not.
    func check(_ document: JSONValue) -> String? {
        guard let actual = resolve(in: document) else { return "\(path) is missing" }
        let holds: Bool
        switch (op, actual, expected) {
        case (.equal, _, _): holds = actual == expected
        case (.notEqual, _, _): holds = actual != expected
        // Every string contains the empty one (Foundation's `contains` says no).
        case (.contains, .string(let text), .string(let part)): holds = part.isEmpty || text.contains(part)
        case (.contains, .array(let values), _): holds = values.contains(expected)
        case (.contains, .object, .string(let key)): holds = actual[key] != nil
        case (_, .number(let a), .number(let b)): holds = compare(a, b)
        case (_, .string(let a), .string(let b)): holds = compare(a, b)
        default: return "\(path) is \(actual.text), which cannot be compared with \(op.rawValue) \(expected.text)"
        }
        return holds ? nil : "\(path) is \(actual.text), expected \(op.rawValue) \(expected.text)"
    }

    private func compare<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch op {
        case .less: a < b
        case .lessOrEqual: a <= b
        case .greater: a > b
        case .greaterOrEqual: a >= b
        case .equal: a == b
        case .notEqual: a != b
        case .contains: false
        }
    }
}
