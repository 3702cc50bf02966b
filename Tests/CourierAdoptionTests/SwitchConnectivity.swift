import CourierDomain

/// An app's own connectivity monitor (on a device it would wrap `NWPathMonitor`): a switch the test flips.
@MainActor
final class SwitchConnectivity: ConnectivityMonitor {
    private let observers = ObserverList<Bool>()
    private(set) var isOnline: Bool

    init(online: Bool) { isOnline = online }

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
