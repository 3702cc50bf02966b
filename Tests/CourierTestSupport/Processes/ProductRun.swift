/// How one run of an executable ended (`ProductBinary.run`).
public struct ProductRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything it printed on standard output.
    public var output: String
    /// Everything it printed on standard error.
    public var errors: String
}
