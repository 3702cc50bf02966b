import CourierDomain
import CourierStore

/// What the Linux kernel says about the device's network — its interfaces and its default routes — and the rule
/// that turns it into a `NetworkPath`. Pure: `KernelPathReader` gathers the facts, tests write them by hand.
///
/// The path is satisfied when a default route leaves by a usable interface (up, with a carrier, not the loopback,
/// with an address); among several, the kernel's choice: the lowest metric (on a tie, wired before Wi-Fi before
/// cellular before other). Its interface names the type; a cellular path is expensive. The kernel has no notion of
/// a low-data mode, so a path is never constrained here.
struct KernelPathFacts: Equatable, Sendable {
    /// Every interface the kernel reported.
    var interfaces: [InterfaceFacts]
    /// The default routes of the main table, IPv4 and IPv6.
    var defaultRoutes: [DefaultRoute]

    /// Creates the facts.
    init(interfaces: [InterfaceFacts], defaultRoutes: [DefaultRoute]) {
        self.interfaces = interfaces
        self.defaultRoutes = defaultRoutes
    }

    /// The path these facts describe.
    var networkPath: NetworkPath {
        var usable: [String: InterfaceFacts] = [:]
        for interface in interfaces where interface.isUsable { usable[interface.name] = interface }
        // A candidate's rank: the kernel's choice (the lowest metric), then the preferred medium, then the name.
        let candidates = defaultRoutes.compactMap { route -> (metric: UInt32, preference: Int, name: String)? in
            guard let interface = usable[route.interface] else { return nil }
            return (route.metric, Self.preference(Self.connectionType(of: interface)), interface.name)
        }
        let best = candidates.min { $0 < $1 }.flatMap { usable[$0.name] }
        guard let best else { return .unavailable }
        let type = Self.connectionType(of: best)
        return NetworkPath(status: .satisfied, type: type, isExpensive: type == .cellular)
    }

    // MARK: - Classifying an interface

    /// Name prefixes of mobile data interfaces: modems (`wwan0`, `wwp0s20f0u6`), phones' data channels (`rmnet_data0`,
    /// `ccmni0`), point-to-point links (`ppp0`).
    private static let cellularPrefixes = ["ww", "rmnet", "ccmni", "ppp"]
    /// Name prefixes of Ethernet-like interfaces (`eth0`, `enp3s0`, `eno1`, `veth0`).
    private static let wiredPrefixes = ["eth", "en", "veth"]

    /// The medium of one interface: a wireless LAN device (or a `wl…` name) is Wi-Fi; a modem's name or a raw-IP
    /// link is cellular; an Ethernet-like name or hardware type is wired; anything else is other.
    static func connectionType(of interface: InterfaceFacts) -> ConnectionType {
        let name = interface.name
        if interface.isWireless || name.hasPrefix("wl") { return .wifi }
        if cellularPrefixes.contains(where: name.hasPrefix) || interface.hardwareType == InterfaceFacts.rawIPHardware {
            return .cellular
        }
        if wiredPrefixes.contains(where: name.hasPrefix) || interface.hardwareType == InterfaceFacts.ethernetHardware {
            return .wired
        }
        return .other
    }

    /// The order a tie between default routes of equal metric is broken in.
    private static func preference(_ type: ConnectionType) -> Int {
        switch type {
        case .wired: 0
        case .wifi: 1
        case .cellular: 2
        case .other: 3
        case .none: 4
        }
    }
}
