import CourierDomain
import Testing

@testable import CourierData
@testable import CourierStore

@Suite("The Linux path rule")
struct KernelPathFactsTests {
    private let loopback = InterfaceFacts(name: "lo", isLoopback: true, hardwareType: 772)

    // MARK: - Satisfied or not

    @Test("nothing but the loopback is no path")
    func onlyLoopback() {
        let facts = KernelPathFacts(interfaces: [loopback], defaultRoutes: [DefaultRoute(interface: "lo")])
        #expect(facts.networkPath == .unavailable)
    }

    @Test("an interface up with an address but no default route is no path")
    func noDefaultRoute() {
        let facts = KernelPathFacts(interfaces: [loopback, InterfaceFacts(name: "eth0")], defaultRoutes: [])
        #expect(facts.networkPath == .unavailable)
    }

    @Test("a default route over an interface that is down, without a carrier or without an address is no path")
    func unusableInterface() {
        let unusable = [
            InterfaceFacts(name: "eth0", isUp: false, isRunning: false),
            InterfaceFacts(name: "eth0", isRunning: false),
            InterfaceFacts(name: "eth0", hasAddress: false),
        ]
        for interface in unusable {
            let facts = KernelPathFacts(
                interfaces: [loopback, interface], defaultRoutes: [DefaultRoute(interface: "eth0")])
            #expect(facts.networkPath == .unavailable, "\(interface)")
        }
    }

    @Test("a default route over an interface the kernel did not list is no path")
    func routeOverUnknownInterface() {
        let facts = KernelPathFacts(
            interfaces: [InterfaceFacts(name: "eth0")], defaultRoutes: [DefaultRoute(interface: "eth1")])
        #expect(facts.networkPath == .unavailable)
    }

    @Test("a default route over a usable interface is a satisfied path of that interface's type")
    func satisfied() {
        let facts = KernelPathFacts(
            interfaces: [loopback, InterfaceFacts(name: "eth0", hardwareType: 1)],
            defaultRoutes: [DefaultRoute(interface: "eth0")])
        #expect(facts.networkPath == NetworkPath(status: .satisfied, type: .wired))
    }

    // MARK: - Which route

    @Test("among several default routes the lowest metric names the type")
    func lowestMetricWins() {
        let interfaces = [InterfaceFacts(name: "wlan0", isWireless: true), InterfaceFacts(name: "wwan0")]
        let cellularFirst = KernelPathFacts(
            interfaces: interfaces,
            defaultRoutes: [
                DefaultRoute(interface: "wlan0", metric: 600), DefaultRoute(interface: "wwan0", metric: 50),
            ])
        #expect(cellularFirst.networkPath == NetworkPath(status: .satisfied, type: .cellular, isExpensive: true))
        let wifiFirst = KernelPathFacts(
            interfaces: interfaces,
            defaultRoutes: [
                DefaultRoute(interface: "wwan0", metric: 700), DefaultRoute(interface: "wlan0", metric: 600),
            ])
        #expect(wifiFirst.networkPath == NetworkPath(status: .satisfied, type: .wifi))
    }

    @Test("on equal metrics wired goes before Wi-Fi before cellular before other")
    func tiesByPreference() {
        let all = [
            InterfaceFacts(name: "tun0", hardwareType: 65534), InterfaceFacts(name: "wwan0"),
            InterfaceFacts(name: "wlp2s0"), InterfaceFacts(name: "enp3s0"),
        ]
        let expected: [ConnectionType] = [.wired, .wifi, .cellular, .other]
        for (dropped, type) in expected.enumerated() {
            let interfaces = Array(all.dropLast(dropped))
            let routes = interfaces.map { DefaultRoute(interface: $0.name, metric: 100) }
            #expect(KernelPathFacts(interfaces: interfaces, defaultRoutes: routes).networkPath.type == type)
        }
    }

    @Test("a usable route wins over a preferred one whose interface is down")
    func skipsUnusable() {
        let facts = KernelPathFacts(
            interfaces: [
                InterfaceFacts(name: "eth0", isRunning: false), InterfaceFacts(name: "wlan0", isWireless: true),
            ],
            defaultRoutes: [
                DefaultRoute(interface: "eth0", metric: 100), DefaultRoute(interface: "wlan0", metric: 600),
            ])
        #expect(facts.networkPath == NetworkPath(status: .satisfied, type: .wifi))
    }

    // MARK: - Classifying an interface

    @Test(
        "interfaces are classified by wireless device, name and hardware type",
        arguments: [
            (InterfaceFacts(name: "wlan0"), ConnectionType.wifi),
            (InterfaceFacts(name: "wlp2s0"), .wifi),
            (InterfaceFacts(name: "radio0", hardwareType: 1, isWireless: true), .wifi),
            (InterfaceFacts(name: "wwan0"), .cellular),
            (InterfaceFacts(name: "wwp0s20f0u6"), .cellular),
            (InterfaceFacts(name: "rmnet_data0"), .cellular),
            (InterfaceFacts(name: "ccmni0"), .cellular),
            (InterfaceFacts(name: "ppp0", hardwareType: 512), .cellular),
            (InterfaceFacts(name: "modem0", hardwareType: 519), .cellular),
            (InterfaceFacts(name: "eth0"), .wired),
            (InterfaceFacts(name: "enp3s0"), .wired),
            (InterfaceFacts(name: "eno1"), .wired),
            (InterfaceFacts(name: "veth0"), .wired),
            (InterfaceFacts(name: "br0", hardwareType: 1), .wired),
            (InterfaceFacts(name: "tun0", hardwareType: 65534), .other),
            (InterfaceFacts(name: "wg0", hardwareType: 65534), .other),
            (InterfaceFacts(name: "sit1", hardwareType: 776), .other),
        ])
    func classification(interface: InterfaceFacts, type: ConnectionType) {
        #expect(KernelPathFacts.connectionType(of: interface) == type)
    }

    @Test("only a cellular path is expensive, and none is constrained")
    func flags() {
        for name in ["wwan0", "wlan0", "eth0", "tun0"] {
            let path = KernelPathFacts(
                interfaces: [InterfaceFacts(name: name)], defaultRoutes: [DefaultRoute(interface: name)]
            )
            .networkPath
            #expect(path.isExpensive == (name == "wwan0"), "\(name)")
            #expect(!path.isConstrained, "\(name)")
        }
    }
}
