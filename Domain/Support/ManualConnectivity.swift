/// Connectivity switched by hand: for tests, previews and simulations, like `ManualClock` for time.
@MainActor
public final class ManualConnectivity: ConnectivityMonitor {
    private let observers = ObserverList<Bool>()
    /// Online now.
    public private(set) var isOnline: Bool

    /// Creates a monitor that starts online (or offline).
    public init(online: Bool = true) { isOnline = online }

    /// Goes online or offline; observers hear of a change only.
    public func set(online: Bool) {
        guard online != isOnline else { return }
        isOnline = online
        observers.notify(online)
    }

    public func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        let token = observers.add(observer)
        observer(isOnline)
        return token
    }
}
