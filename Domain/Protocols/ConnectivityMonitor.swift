/// Whether the device can reach the backend.
@MainActor
public protocol ConnectivityMonitor: AnyObject {
    /// Online now.
    var isOnline: Bool { get }
    /// Calls `observer` with the current value at once and then with every change.
    func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken
}
