/// Why an executable of the package could not be found or run, and how to get one.
public struct ProductBinaryError: Error, CustomStringConvertible {
    /// What went wrong.
    public let detail: String

    /// An error saying `detail`.
    public init(detail: String) { self.detail = detail }

    /// Says what went wrong.
    public var description: String { detail }
}
