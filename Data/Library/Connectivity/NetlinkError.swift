#if os(Linux)
    import Glibc

    /// The kernel refused the netlink socket a `LinuxPathMonitor` listens on (a sandbox that forbids netlink, a
    /// descriptor limit reached).
    public struct NetlinkError: Error, Equatable, CustomStringConvertible {
        /// The call that failed (`socket`, `bind`).
        public let operation: String
        /// Its `errno`.
        public let code: Int32

        /// Creates the error of `operation`, which failed with `code`.
        public init(operation: String, code: Int32) {
            self.operation = operation
            self.code = code
        }

        /// The call and the system's words for the error.
        public var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }
#endif
