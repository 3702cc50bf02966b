import Testing

@testable import CourierData
@testable import CourierStore

@Suite("Default routes from /proc/net")
struct DefaultRouteProcNetTests {
    @Test("the IPv4 table gives its default routes with their metrics, and nothing else")
    func ipv4() {
        // Given the table of a machine on Ethernet and Wi-Fi, with a reject route and a damaged line
        let text = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t00000000\t0200090A\t0003\t0\t0\t100\t00000000\t0\t0\t0
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            eth0\t0000090A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0
            *\t00000000\t00000000\t0201\t0\t0\t0\t00000000\t0\t0\t0
            lo\t00000000\t00000000\t0201\t0\t0\t0\t00000000\t0\t0\t0
            eth1\t00000000\t0200090A\t0002\t0\t0\t0\t00000000\t0\t0\t0
            eth2\t0000000G
            """
        // Then the two default routes that are up and lead somewhere are found
        #expect(
            DefaultRoute.ipv4(procNetRoute: text) == [
                DefaultRoute(interface: "eth0", metric: 100), DefaultRoute(interface: "wlan0", metric: 600),
            ])
    }

    @Test("an IPv4 table with its header alone has no default route")
    func ipv4Empty() {
        let text = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        #expect(DefaultRoute.ipv4(procNetRoute: text).isEmpty)
        #expect(DefaultRoute.ipv4(procNetRoute: "").isEmpty)
    }

    @Test("the IPv6 table gives its default routes, without the loopback's unreachable ones")
    func ipv6() {
        // Given a table as a fresh namespace with a veth pair shows it, plus a default route over eth0
        let zero = String(repeating: "0", count: 32)
        let text = """
            fe800000000000000000000000000000 40 \(zero) 00 \(zero) 00000100 00000001 00000000 00000001    veth0
            \(zero) 00 \(zero) 00 \(zero) ffffffff 00000001 00000000 00200200       lo
            ff000000000000000000000000000000 08 \(zero) 00 \(zero) 00000100 00000002 00000000 00000001    veth0
            \(zero) 00 \(zero) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00450003     eth0
            \(zero) 40 \(zero) 00 \(zero) 00000100 00000001 00000000 00000001     eth1
            """
        // Then only the route to ::/0 over eth0, usable, counts; its metric is hexadecimal
        #expect(DefaultRoute.ipv6(procNetIPv6Route: text) == [DefaultRoute(interface: "eth0", metric: 1024)])
    }
}
