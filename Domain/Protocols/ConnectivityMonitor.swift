/// Whether the device can reach the backend.
@MainActor
public protocol ConnectivityMonitor: AnyObject {
    /// Online now: the device has a path and (for a monitor that knows) the backend answers.
    var isOnline: Bool { get }
    /// False only while the device has a path but the backend cannot be reached (it refuses, or is gone): screens
    /// then say so instead of "offline". A monitor that knows only the device's path says true.
    var isBackendReachable: Bool { get }
    /// The device's path as the platform describes it — its kind (wifi, cellular, wired, other, none) and whether
    /// it is expensive or constrained — for a send policy or a screen that cares (a monitor that knows only online
    /// or offline says `other` or `none`).
    var networkPath: NetworkPath { get }
    /// Calls `observer` with the current value at once and then with every change.
    func observe(_ observer: @escaping @MainActor (Bool) -> Void) -> ObservationToken
}

extension ConnectivityMonitor {
    /// A monitor of the device's path alone cannot tell: it says the backend is reachable.
    public var isBackendReachable: Bool { true }

    /// A monitor that knows only online or offline: `other` online, `none` offline, no flags.
    public var networkPath: NetworkPath {
        isOnline ? NetworkPath(status: .satisfied, type: .other) : .unavailable
    }
}
