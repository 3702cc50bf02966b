/// A field of `world.json` that could not be used on load: missing, of the wrong type, or out of range. The
/// default took its place; the file is rewritten whole at the next save.
public struct WorldSettingsProblem: Equatable, Sendable, CustomStringConvertible {
    /// The field's key, or `*` when the file as a whole could not be read.
    public var field: String
    /// What was wrong, and what was used instead.
    public var reason: String

    /// Creates a problem report.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { field == "*" ? reason : "\(field): \(reason)" }
}
