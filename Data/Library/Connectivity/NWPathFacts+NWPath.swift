#if canImport(Network)
    import CourierDomain
    import Network

    extension NWPathFacts {
        /// The media a path is asked about, each with the system's name for it; the loopback is left out.
        private static let media: [(ConnectionType, NWInterface.InterfaceType)] = [
            (.wifi, .wifi), (.cellular, .cellular), (.wired, .wiredEthernet), (.other, .other),
        ]

        /// The facts of a path the system's monitor handed over.
        init(_ path: NWPath) {
            // Compared rather than switched over: the system's status enumeration may grow, and anything it adds is
            // treated as unusable.
            let status: Status =
                if path.status == .satisfied {
                    .satisfied
                } else if path.status == .requiresConnection {
                    .requiresConnection
                } else {
                    .unsatisfied
                }
            let types = Self.media.filter { path.usesInterfaceType($0.1) }.map(\.0)
            self.init(
                status: status, interfaceTypes: Set(types), isExpensive: path.isExpensive,
                isConstrained: path.isConstrained)
        }
    }
#endif
