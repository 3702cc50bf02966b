/// Why a display name is refused; nothing changes.
///
/// A struct, as `DeliveryError` is, so that a later kind breaks no app's `switch`: match one error by value
/// (`catch DisplayNameError.empty`) or a kind whatever it carries by `code`, with a `default`.
public struct DisplayNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds, with what each carries: the package's own, so that its `switch`es stay exhaustive.
    package enum Kind: Hashable, Sendable {
        case empty
        case tooLong(characters: Int, limit: Int)
    }

    /// The kind of a display-name error, without what it carries. New codes may be added: a `switch` over one has a
    /// `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// Nothing but spaces.
        public static let empty = Code(name: "empty")
        /// Longer than allowed.
        public static let tooLong = Code(name: "tooLong")

        /// The code's name (`empty`, `tooLong`).
        public var description: String { name }
    }

    /// What kind of error this is, with what it carries.
    package let kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// Nothing but spaces.
    public static let empty = DisplayNameError(.empty)
    /// Longer than `ProfileViewModel.maxDisplayNameLength`.
    public static func tooLong(characters: Int, limit: Int) -> DisplayNameError {
        DisplayNameError(.tooLong(characters: characters, limit: limit))
    }

    /// What kind of error this is, whatever it carries.
    public var code: Code {
        switch kind {
        case .empty: .empty
        case .tooLong: .tooLong
        }
    }

    /// How long a `tooLong` name was, in characters; nil for the other codes.
    public var characters: Int? {
        if case .tooLong(let characters, _) = kind { return characters }
        return nil
    }

    /// The longest name allowed, for `tooLong`; nil for the other codes.
    public var limit: Int? {
        if case .tooLong(_, let limit) = kind { return limit }
        return nil
    }

    /// Whether `value` is this error: `catch DisplayNameError.empty`.
    public static func ~= (pattern: DisplayNameError, value: any Error) -> Bool {
        (value as? DisplayNameError) == pattern
    }

    /// The text the user sees.
    public var description: String {
        switch kind {
        case .empty: "a display name cannot be empty"
        case .tooLong(let characters, let limit):
            "a display name is at most \(limit) characters (this one has \(characters))"
        }
    }
}
