extension DefaultRoute {
    /// `RTF_UP`: the route is usable.
    private static let up: UInt32 = 0x0001
    /// `RTF_REJECT`: an unreachable or prohibit route, which leads nowhere.
    private static let reject: UInt32 = 0x0200

    /// The default routes in the text of `/proc/net/route` (IPv4, main table): a header line, then one route a line
    /// — interface, destination, gateway, flags (hex), refcount, use, metric (decimal), mask (hex), … A line that
    /// does not parse is skipped.
    static func ipv4(procNetRoute text: String) -> [DefaultRoute] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8, fields[0] != "*",
                let destination = UInt32(fields[1], radix: 16), let flags = UInt32(fields[3], radix: 16),
                let metric = UInt32(fields[6]), let mask = UInt32(fields[7], radix: 16),
                destination == 0, mask == 0, usable(flags)
            else { return nil }
            return DefaultRoute(interface: String(fields[0]), metric: metric)
        }
    }

    /// The default routes in the text of `/proc/net/ipv6_route`: no header; destination (32 hex digits), prefix
    /// length, source, source prefix length, next hop, metric, refcount, use, flags (all hex), interface. A line
    /// that does not parse is skipped.
    static func ipv6(procNetIPv6Route text: String) -> [DefaultRoute] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 10, fields[0].count == 32, fields[0].allSatisfy({ $0 == "0" }),
                let prefixLength = UInt8(fields[1], radix: 16), prefixLength == 0,
                let metric = UInt32(fields[5], radix: 16), let flags = UInt32(fields[8], radix: 16), usable(flags)
            else { return nil }
            return DefaultRoute(interface: String(fields[9]), metric: metric)
        }
    }

    private static func usable(_ flags: UInt32) -> Bool { flags & up != 0 && flags & reject == 0 }
}
