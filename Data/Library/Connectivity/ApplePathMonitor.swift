#if canImport(Network)
    import CourierDomain
    import Dispatch
    import Network

    /// The network path on Apple platforms, from the system's `NWPathMonitor`: each path it delivers (on the main
    /// queue) becomes a `NetworkPath` by `NWPathFacts`, the same rule on every platform; observers hear of a change
    /// only.
    ///
    /// It is a real-world part: it belongs in an app's composition, never in a deterministic test or simulation
    /// (those use `ManualPathMonitor`).
    @MainActor
    public final class ApplePathMonitor: PathMonitor {
        private let observers = ObserverList<NetworkPath>()
        private let monitor = NWPathMonitor()
        private var isStopped = false
        /// The path now.
        public private(set) var path: NetworkPath

        /// Starts watching. `path` starts as the monitor's current path; the system delivers its first evaluation at
        /// once after the start, and observers hear of it if it differs.
        public init() {
            path = .unavailable
            monitor.pathUpdateHandler = { [weak self] update in
                let facts = NWPathFacts(update)
                // The monitor delivers on the main queue (`start(queue: .main)` below).
                MainActor.assumeIsolated { self?.receive(facts.networkPath) }
            }
            monitor.start(queue: .main)
            path = NWPathFacts(monitor.currentPath).networkPath
        }

        deinit { monitor.cancel() }

        public func observe(_ observer: @escaping @MainActor (NetworkPath) -> Void) -> ObservationToken {
            let token = observers.add(observer)
            observer(path)
            return token
        }

        /// Stops watching; `path` keeps its last value. Stopping twice is harmless.
        public func stop() {
            guard !isStopped else { return }
            isStopped = true
            monitor.cancel()
        }

        private func receive(_ path: NetworkPath) {
            guard !isStopped, path != self.path else { return }
            self.path = path
            observers.notify(path)
        }
    }
#endif
