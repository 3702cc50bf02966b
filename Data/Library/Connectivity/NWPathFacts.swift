import CourierDomain
import CourierStore

/// What a network path from the system's path monitor says, as plain values, and the rule that turns it into a
/// `NetworkPath`. `ApplePathMonitor` fills it from each path it is handed; because the rule is here, outside any
/// platform condition, it is the same, and tested, everywhere.
///
/// A path that can carry traffic, or could once a connection brings it up (an on-demand VPN, a mobile data context
/// not yet active), is satisfied: whether the backend can really be reached is for the reachability probe to find,
/// and an unsatisfied path would never let it try. Its type is the first medium the path uses, in the order Wi-Fi,
/// cellular, wired, other (a VPN over Wi-Fi uses both, and Wi-Fi is what the user knows it by); a satisfied path
/// over none of them is other. The expensive and constrained flags are the system's own. An unsatisfied path is
/// `NetworkPath.unavailable`.
struct NWPathFacts: Equatable, Sendable {
    /// The path's status, as the system reports it.
    enum Status: Equatable, Sendable {
        /// Usable now.
        case satisfied
        /// Not usable.
        case unsatisfied
        /// Not usable now, but a connection attempt may bring it up.
        case requiresConnection
    }

    /// The path's status.
    var status: Status
    /// The media the path uses (those `usesInterfaceType` answers yes for); the loopback is not one of them.
    var interfaceTypes: Set<ConnectionType>
    /// The system deems the path expensive.
    var isExpensive: Bool
    /// The system deems the path constrained (low-data mode).
    var isConstrained: Bool

    /// Creates the facts of one path.
    init(status: Status, interfaceTypes: Set<ConnectionType>, isExpensive: Bool = false, isConstrained: Bool = false) {
        self.status = status
        self.interfaceTypes = interfaceTypes
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// The order in which the media a path uses are tried for its type.
    static let typeOrder: [ConnectionType] = [.wifi, .cellular, .wired, .other]

    /// The path these facts describe.
    var networkPath: NetworkPath {
        guard status != .unsatisfied else { return .unavailable }
        let type = Self.typeOrder.first(where: interfaceTypes.contains) ?? .other
        return NetworkPath(status: .satisfied, type: type, isExpensive: isExpensive, isConstrained: isConstrained)
    }
}
