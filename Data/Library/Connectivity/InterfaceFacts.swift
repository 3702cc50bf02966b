/// What the Linux kernel says about one network interface, as plain values: the input of `KernelPathFacts`, read
/// by `KernelPathReader` (getifaddrs, sysfs) and written by hand in tests.
struct InterfaceFacts: Equatable, Sendable {
    /// The hardware type (`ARPHRD_*`, `include/uapi/linux/if_arp.h`) of an Ethernet-like link.
    static let ethernetHardware: UInt16 = 1
    /// The hardware type of a link that carries bare IP packets, as modems' data channels do.
    static let rawIPHardware: UInt16 = 519

    /// The name (`eth0`, `wlp2s0`, `wwan0`).
    var name: String
    /// Administratively up (`IFF_UP`).
    var isUp: Bool
    /// Operationally up: it has a carrier (`IFF_RUNNING`).
    var isRunning: Bool
    /// The loopback interface (`IFF_LOOPBACK`).
    var isLoopback: Bool
    /// It holds at least one IPv4 or IPv6 address.
    var hasAddress: Bool
    /// The link's hardware type (`ARPHRD_*`), when the kernel reported one.
    var hardwareType: UInt16?
    /// A wireless LAN device (sysfs has `wireless` or `phy80211` for it).
    var isWireless: Bool

    /// Creates the facts of one interface.
    init(
        name: String, isUp: Bool = true, isRunning: Bool = true, isLoopback: Bool = false, hasAddress: Bool = true,
        hardwareType: UInt16? = nil, isWireless: Bool = false
    ) {
        self.name = name
        self.isUp = isUp
        self.isRunning = isRunning
        self.isLoopback = isLoopback
        self.hasAddress = hasAddress
        self.hardwareType = hardwareType
        self.isWireless = isWireless
    }

    /// Whether traffic can leave through it: up, with a carrier, not the loopback, with an address.
    var isUsable: Bool { isUp && isRunning && !isLoopback && hasAddress }
}
