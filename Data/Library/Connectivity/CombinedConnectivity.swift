import CourierDomain
import CourierStore

/// What the screens call online: the device has a path (the platform's monitor) **and** the backend can be reached
/// (`BackendReachability`). A server outage therefore reads like the device going offline — messages stay queued,
/// the send policy applies when it answers again — while `isBackendReachable` lets a screen say which it is.
@MainActor
public final class CombinedConnectivity: ConnectivityMonitor {
    /// The device's path.
    public let path: any ConnectivityMonitor
    /// The backend's reachability.
    public let reachability: BackendReachability
    /// Online now: a path and a reachable backend.
    public private(set) var isOnline: Bool
    private let observers = ObserverList<Bool>()
    private var tokens: [ObservationToken] = []

    /// Combines `path` and `reachability`; a change of the path also tells `reachability` (a fast probe again).
    public init(path: any ConnectivityMonitor, reachability: BackendReachability) {
        self.path = path
        self.reachability = reachability
        isOnline = path.isOnline && reachability.isReachable
        var first = true
        tokens.append(
            path.observe { [weak self, reachability] hasPath in
                // The replayed first reading is no change of path.
                if !first { reachability.pathChanged(hasPath: hasPath) }
                first = false
                self?.update()
            })
        tokens.append(reachability.observe { [weak self] _ in self?.update() })
        // A platform's path also tells of a move between networks that stays online (Wi-Fi to cellular).
        if let platform = path as? PathConnectivity {
            tokens.append(
                platform.observePath { [reachability] path in
                    if path.isSatisfied { reachability.pathChanged(hasPath: true) }
                })
        }
    }

    /// False only while the device has a path and the backend cannot be reached.
    public var isBackendReachable: Bool { !path.isOnline || reachability.isReachable }

    /// The device's path as its monitor describes it (kind, expensive, constrained), whatever the backend does.
    public var networkPath: NetworkPath { path.networkPath }

    public func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        let token = observers.add(observer)
        observer(isOnline)
        return token
    }

    private func update() {
        let online = path.isOnline && reachability.isReachable
        guard online != isOnline else { return }
        isOnline = online
        observers.notify(online)
    }
}
