import CourierDomain
import CourierOneShot

/// A REF on a command line: `3` is the third message of the list the command acts on (1-based), `@3f9a01c2` the
/// message whose id starts with `3f9a01c2` (at least 4 characters). A number is always a position, so an id that
/// happens to be all digits is reached only with `@`.
enum MessageReference: Equatable {
    /// 1-based position in the list.
    case position(Int)
    /// The start of a message id.
    case idPrefix(String)

    /// The shortest id prefix accepted.
    static let minimumPrefixLength = 4

    /// Reads a REF; a bad one is a `DriverError.badArguments` saying what a REF is.
    static func parse(_ text: String) throws(DriverError) -> MessageReference {
        let usage = "a message reference is a position (1, 2, …) or @ and the start of its id (@3f9a, 4 or more)"
        guard !text.isEmpty, !text.contains(" ") else { throw .badArguments(usage) }
        if text.hasPrefix("@") {
            let prefix = String(text.dropFirst())
            guard prefix.count >= minimumPrefixLength else {
                throw .badArguments(
                    "an id prefix needs at least \(minimumPrefixLength) characters after @, not \(text)")
            }
            return .idPrefix(prefix)
        }
        guard text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { throw .badArguments(usage) }
        guard let position = Int(text), position >= 1 else {
            throw .badArguments("positions start at 1; \(text) is none")
        }
        return .position(position)
    }

    /// The message this REF names among `ids` (the list, in the order shown), or a `DriverError.failed` naming the
    /// list, or every candidate of an ambiguous prefix.
    func resolve(among ids: [MessageID], list: String) throws(DriverError) -> MessageID {
        switch self {
        case .position(let position):
            guard position <= ids.count else {
                throw .failed("no message at position \(position) (the \(list) hold \(ids.count))")
            }
            return ids[position - 1]
        case .idPrefix(let prefix):
            let matches = ids.filter { $0.rawValue.hasPrefix(prefix) }
            guard let match = matches.first else { throw .failed("no message @\(prefix) among the \(list)") }
            guard matches.count == 1 else {
                let candidates = matches.map { "@\($0.rawValue)" }.joined(separator: ", ")
                throw .failed("@\(prefix) is ambiguous: \(candidates)")
            }
            return match
        }
    }

    /// How a listing shows a message so that it can be named: `@` and the first 8 characters of its id.
    static func label(_ id: MessageID) -> String { "@" + id.rawValue.prefix(8) }
}
