#if os(Linux)
    import Glibc

    /// A `NETLINK_ROUTE` socket subscribed to the kernel's announcements of link, address and route changes. The
    /// messages are not parsed: each is a wake-up, after which the state is read afresh — so a message lost to an
    /// overflowing buffer loses nothing either. Used by one thread at a time.
    final class NetlinkSocket {
        /// What a wait for an announcement ended with.
        enum Wake: Equatable {
            /// The kernel announced a change (or so many that some were dropped).
            case changed
            /// Nothing came within the receive timeout.
            case timedOut
        }

        /// `NETLINK_ROUTE` (`include/uapi/linux/netlink.h`): the routing family.
        private static let routeProtocol: Int32 = 0
        /// The multicast groups (`RTMGRP_*`, `include/uapi/linux/rtnetlink.h`) of links, IPv4 and IPv6 addresses and
        /// IPv4 and IPv6 routes.
        static let pathGroups: UInt32 = 0x1 | 0x10 | 0x100 | 0x40 | 0x400

        private let descriptor: Int32
        private var buffer = [UInt8](repeating: 0, count: 16_384)

        /// Opens the socket and joins `groups`; a wait for an announcement gives up after `receiveTimeout`
        /// milliseconds.
        init(groups: UInt32, receiveTimeout: Int) throws(NetlinkError) {
            let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let descriptor = socket(AF_NETLINK, type, Self.routeProtocol)
            guard descriptor >= 0 else { throw NetlinkError(operation: "socket", code: errno) }
            // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
            // is not in the Glibc module; its twelve bytes are laid out by hand (pid 0: the kernel assigns one).
            var address = [UInt8](repeating: 0, count: 12)
            address.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: sa_family_t(AF_NETLINK), toByteOffset: 0, as: sa_family_t.self)
                bytes.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
            }
            let bound = address.withUnsafeBytes { bytes in
                bind(descriptor, bytes.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(descriptor)
                throw NetlinkError(operation: "bind", code: code)
            }
            var timeout = timeval(tv_sec: receiveTimeout / 1000, tv_usec: (receiveTimeout % 1000) * 1000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            // Room for a burst (a link going down takes its addresses and routes with it); an overflow is harmless.
            var size: Int32 = 1 << 18
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            self.descriptor = descriptor
        }

        /// Blocks until the kernel announces a change or the receive timeout passes. Throws on a failure that would
        /// repeat (the socket is unusable).
        func waitForChange() throws(NetlinkError) -> Wake {
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count >= 0 { return .changed }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .timedOut
                case ENOBUFS: return .changed  // announcements were dropped: the state is read afresh all the same
                case let code: throw NetlinkError(operation: "recv", code: code)
                }
            }
        }

        /// Reads what else arrives until the socket has been quiet for `quiet` milliseconds, or for at most `limit`
        /// milliseconds in all: a burst of announcements (a link and its addresses and routes) becomes one wake-up.
        func drain(quiet: Int32, limit: Int32) {
            let start = Self.milliseconds()
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while true {
                let left = Int32(clamping: Int64(limit) - (Self.milliseconds() - start))
                guard left > 0 else { return }
                let ready = poll(&entry, 1, min(quiet, left))
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { return }
                let count = buffer.withUnsafeMutableBytes {
                    recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count < 0 && errno != EINTR && errno != ENOBUFS && errno != EAGAIN { return }
            }
        }

        /// Closes the socket; nothing may use it afterwards.
        func close() { Glibc.close(descriptor) }

        private static func milliseconds() -> Int64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        }
    }
#endif
