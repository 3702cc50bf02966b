#if os(Linux)
    import CourierDomain
    import Dispatch

    /// The network path on Linux, from the kernel's own state: a `NETLINK_ROUTE` socket announces every change of a
    /// link, an IPv4 or IPv6 address or route; a thread of the monitor's own waits on it, then reads the interfaces
    /// (`getifaddrs`) and the default routes (`/proc/net/route`, `/proc/net/ipv6_route`) afresh, and `KernelPathFacts`
    /// turns them into a path. A change reaches the main actor within about 100 ms of the kernel's announcement (a
    /// burst of announcements is waited out, for at most 80 ms, and reported once); observers hear of a change only.
    ///
    /// It is a real-world part: it reads the wall-clock world, not the injected `Clock`, and belongs in an app's
    /// composition, never in a deterministic test or simulation (those use `ManualPathMonitor`).
    @MainActor
    public final class LinuxPathMonitor: PathMonitor {
        private let observers = ObserverList<NetworkPath>()
        private let watcher: KernelPathWatcher
        private var isStopped = false
        /// The path now.
        public private(set) var path: NetworkPath

        /// Starts watching. The first path is read here, synchronously (a few reads of kernel state), so that `path`
        /// is true from the start rather than `unavailable` for a moment; every later read happens on the monitor's
        /// thread. Throws when the kernel refuses the netlink socket.
        public init(logger: Logger = .silent) throws(NetlinkError) {
            // Subscribe before the first read, so that no change falls between the two.
            let socket = try NetlinkSocket(
                groups: NetlinkSocket.pathGroups, receiveTimeout: KernelPathWatcher.receiveTimeout)
            let initial = KernelPathReader.facts().networkPath
            path = initial
            watcher = KernelPathWatcher(socket: socket, initial: initial, logger: logger)
            watcher.start { [weak self] path in
                DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.receive(path) } }
            }
        }

        deinit { watcher.stop() }

        public func observe(_ observer: @escaping @MainActor (NetworkPath) -> Void) -> ObservationToken {
            let token = observers.add(observer)
            observer(path)
            return token
        }

        /// Stops watching: the thread ends within a quarter of a second, and `path` keeps its last value. Stopping
        /// twice is harmless.
        public func stop() {
            isStopped = true
            watcher.stop()
        }

        private func receive(_ path: NetworkPath) {
            guard !isStopped, path != self.path else { return }
            self.path = path
            observers.notify(path)
        }
    }
#endif
