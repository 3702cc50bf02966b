/// What the device's network offers right now, as the platform reports it: whether there is a route out at all,
/// over what medium, and whether using it costs the user something. It says nothing about whether the backend
/// answers — that is reachability, a separate question.
public struct NetworkPath: Hashable, Codable, Sendable {
    /// Whether the path can carry traffic.
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// There is a way out: an interface that is up and a route to use it.
        case satisfied
        /// There is no way out.
        case unsatisfied
    }

    /// Whether the path can carry traffic.
    public let status: Status
    /// The medium it runs over; the monitors report `.none` for every unsatisfied path.
    public let type: ConnectionType
    /// The user pays by the byte, or the platform says to be sparing (a mobile network, a phone's hotspot).
    public let isExpensive: Bool
    /// The user asked to save data (a low-data mode).
    public let isConstrained: Bool

    /// Creates a path from its four facts.
    public init(status: Status, type: ConnectionType, isExpensive: Bool = false, isConstrained: Bool = false) {
        self.status = status
        self.type = type
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// Whether the path can carry traffic.
    public var isSatisfied: Bool { status == .satisfied }

    /// No way out: unsatisfied, no medium, no flags. Every path without a way out is reported as this one value,
    /// so that observers hear of a change only when something they could use changed.
    public static let unavailable = NetworkPath(status: .unsatisfied, type: .none)
}
