#if os(Linux)
    import Glibc

    /// Reads the facts a `KernelPathFacts` is made of from the running kernel, as seen from this process's network
    /// namespace: the interfaces from `getifaddrs`, the default routes from `/proc/net/route` and
    /// `/proc/net/ipv6_route`, and whether an interface is a wireless LAN device from sysfs.
    enum KernelPathReader {
        /// The facts now.
        static func facts() -> KernelPathFacts {
            let routes =
                DefaultRoute.ipv4(procNetRoute: contents(of: "/proc/net/route") ?? "")
                + DefaultRoute.ipv6(procNetIPv6Route: contents(of: "/proc/net/ipv6_route") ?? "")
            return KernelPathFacts(interfaces: interfaces(), defaultRoutes: routes)
        }

        /// Every interface, one entry each: `getifaddrs` lists a link once for its hardware (`AF_PACKET`, which
        /// carries the hardware type) and once per address; an IPv4 address may carry a label (`eth0:1`), which
        /// names the same interface.
        static func interfaces() -> [InterfaceFacts] {
            var list: UnsafeMutablePointer<ifaddrs>?
            guard getifaddrs(&list) == 0, let first = list else { return [] }
            defer { freeifaddrs(list) }
            var order: [String] = []
            var byName: [String: InterfaceFacts] = [:]
            for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
                guard let rawName = entry.pointee.ifa_name else { continue }
                let name = String(String(cString: rawName).prefix { $0 != ":" })
                let flags = Int(entry.pointee.ifa_flags)
                if byName[name] == nil {
                    order.append(name)
                    byName[name] = InterfaceFacts(
                        name: name, isUp: false, isRunning: false, isLoopback: false, hasAddress: false,
                        isWireless: isWireless(name))
                }
                guard var facts = byName[name] else { continue }
                facts.isUp = facts.isUp || flags & IFF_UP != 0
                facts.isRunning = facts.isRunning || flags & IFF_RUNNING != 0
                facts.isLoopback = facts.isLoopback || flags & IFF_LOOPBACK != 0
                if let address = entry.pointee.ifa_addr {
                    switch Int32(address.pointee.sa_family) {
                    case AF_INET, AF_INET6:
                        facts.hasAddress = true
                    case AF_PACKET:
                        // struct sockaddr_ll (not in the Glibc module): family, protocol (2 bytes each), ifindex (4),
                        // then the hardware type, 2 bytes at offset 8.
                        facts.hardwareType = UnsafeRawPointer(address).loadUnaligned(fromByteOffset: 8, as: UInt16.self)
                    default:
                        break
                    }
                }
                byName[name] = facts
            }
            return order.compactMap { byName[$0] }
        }

        /// Whether sysfs shows `name` as a wireless LAN device. Sysfs shows the network namespace it was mounted in,
        /// which may not be this process's: the entry counts only if its interface index is this namespace's.
        private static func isWireless(_ name: String) -> Bool {
            let directory = "/sys/class/net/\(name)"
            guard access("\(directory)/wireless", F_OK) == 0 || access("\(directory)/phy80211", F_OK) == 0,
                let text = contents(of: "\(directory)/ifindex"),
                let digits = text.split(whereSeparator: \.isWhitespace).first, let index = UInt32(digits)
            else { return false }
            return index == if_nametoindex(name)
        }

        /// A file's text, read to its end (files under /proc report no size, so it is read until `read` says so).
        static func contents(of path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.append(contentsOf: chunk[..<count])
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
#endif
