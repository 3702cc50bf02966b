/// A network path set by hand: for tests, previews and simulations, like `ManualConnectivity` for being online.
@MainActor
public final class ManualPathMonitor: PathMonitor {
    private let observers = ObserverList<NetworkPath>()
    /// The path now.
    public private(set) var path: NetworkPath

    /// Creates a monitor that starts on `path` (by default a satisfied wired path).
    public init(path: NetworkPath = NetworkPath(status: .satisfied, type: .wired)) { self.path = path }

    /// Moves to `path`; observers hear of a change only.
    public func set(_ path: NetworkPath) {
        guard path != self.path else { return }
        self.path = path
        observers.notify(path)
    }

    public func observe(_ observer: @escaping @MainActor (NetworkPath) -> Void) -> ObservationToken {
        let token = observers.add(observer)
        observer(path)
        return token
    }
}
