import CourierDomain
import CourierStore

/// A platform's `PathMonitor` (`LinuxPathMonitor`, `ApplePathMonitor`) as the `ConnectivityMonitor` a
/// `CourierClient` is given: online while the path is satisfied, with the path's kind and flags as `networkPath`.
/// The client adds the backend's reachability on top (`CombinedConnectivity`).
@MainActor
public final class PathConnectivity: ConnectivityMonitor {
    private let monitor: any PathMonitor
    private let observers = ObserverList<Bool>()
    private let pathObservers = ObserverList<NetworkPath>()
    private var token: ObservationToken?
    /// Online now: the path is satisfied.
    public private(set) var isOnline: Bool
    /// The path as the monitor last reported it.
    public private(set) var networkPath: NetworkPath

    /// Follows `monitor`.
    public init(_ monitor: any PathMonitor) {
        self.monitor = monitor
        networkPath = monitor.path
        isOnline = monitor.path.isSatisfied
        token = monitor.observe { [weak self] path in self?.changed(path) }
    }

    public func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        let token = observers.add(observer)
        observer(isOnline)
        return token
    }

    /// Calls `observer` with every change of the path (another network, a new kind or flag), until the token is
    /// released.
    public func observePath(_ observer: @escaping @MainActor (NetworkPath) -> Void) -> ObservationToken {
        pathObservers.add(observer)
    }

    private func changed(_ path: NetworkPath) {
        guard path != networkPath else { return }
        networkPath = path
        pathObservers.notify(path)
        guard path.isSatisfied != isOnline else { return }
        isOnline = path.isSatisfied
        observers.notify(isOnline)
    }
}
