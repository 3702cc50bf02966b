/// Why a check failed, for the line it prints (`FAIL name: reason`).
public struct ConformanceFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the backend did that the contract forbids, or what could not be done.
    public var reason: String

    /// A failure with `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }

    /// Throws a failure with `reason` unless `condition` holds.
    static func require(_ condition: Bool, _ reason: @autoclosure () -> String) throws(ConformanceFailure) {
        guard condition else { throw ConformanceFailure(reason()) }
    }
}
