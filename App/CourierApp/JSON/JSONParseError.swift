/// Why a JSON text could not be read.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    /// What went wrong and where.
    public let description: String
}
