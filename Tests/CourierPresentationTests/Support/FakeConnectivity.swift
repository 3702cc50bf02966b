import CourierDomain

/// Connectivity a test switches by hand.
@MainActor
final class FakeConnectivity: ConnectivityMonitor {
    private let observers = ObserverList<Bool>()
    private(set) var isOnline: Bool

    init(online: Bool = true) { isOnline = online }

    func set(online: Bool) {
        guard online != isOnline else { return }
        isOnline = online
        observers.notify(online)
    }

    func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken {
        let token = observers.add(observer)
        observer(isOnline)
        return token
    }
}
