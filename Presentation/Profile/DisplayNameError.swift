/// Why a display name is refused; nothing changes.
public enum DisplayNameError: Error, Equatable, CustomStringConvertible {
    /// Nothing but spaces.
    case empty
    /// Longer than `ProfileViewModel.maxDisplayNameLength`.
    case tooLong(characters: Int, limit: Int)

    /// The text the user sees.
    public var description: String {
        switch self {
        case .empty: "a display name cannot be empty"
        case .tooLong(let characters, let limit):
            "a display name is at most \(limit) characters (this one has \(characters))"
        }
    }
}
