#if os(Linux)
    import CourierDomain
    import Foundation

    /// The thread behind `LinuxPathMonitor`: waits on the netlink socket, and after each wake-up (a burst of
    /// announcements counts as one) reads the path afresh and hands it to `publish` when it changed. It never runs on
    /// the main actor; `publish` is called on its thread.
    final class KernelPathWatcher: @unchecked Sendable {
        /// How long a wait on the socket lasts before the thread looks whether it was stopped, in milliseconds.
        static let receiveTimeout = 250
        /// A burst of announcements has ended when the socket was quiet this long, in milliseconds.
        static let quietPeriod: Int32 = 20
        /// The longest a burst is waited out, in milliseconds: a change is read at most this long after it began.
        static let burstLimit: Int32 = 80

        private let socket: NetlinkSocket
        private let logger: Logger
        private let lock = NSLock()
        private var stopped = false
        /// The path last handed out; only the thread touches it once started.
        private var last: NetworkPath

        /// Creates a watcher over `socket` (which it owns and closes), starting from `initial`.
        init(socket: NetlinkSocket, initial: NetworkPath, logger: Logger) {
            self.socket = socket
            self.last = initial
            self.logger = logger
        }

        /// Starts the thread; `publish` hears each new path, on that thread.
        func start(publish: @escaping @Sendable (NetworkPath) -> Void) {
            let thread = Thread { [self] in run(publish: publish) }
            thread.name = "courier path monitor"
            thread.start()
        }

        /// Asks the thread to end; it does within one receive timeout, and closes the socket. Stopping twice is
        /// harmless.
        func stop() { lock.withLock { stopped = true } }

        private var isStopped: Bool { lock.withLock { stopped } }

        private func run(publish: @Sendable (NetworkPath) -> Void) {
            defer { socket.close() }
            while !isStopped {
                do {
                    guard try socket.waitForChange() == .changed else { continue }
                } catch {
                    logger.log(.error, "path monitor: the netlink socket failed (\(error)); no further changes")
                    return
                }
                socket.drain(quiet: Self.quietPeriod, limit: Self.burstLimit)
                let path = KernelPathReader.facts().networkPath
                guard path != last, !isStopped else { continue }
                last = path
                publish(path)
            }
        }
    }
#endif
