/// The platform's view of the device's network: whether there is a way out, over what medium, at what cost.
///
/// A path is the first half of being online; the second is that the backend answers. Implementations in Data read
/// the platform (`LinuxPathMonitor`, `ApplePathMonitor`); `ManualPathMonitor` is switched by hand.
@MainActor
public protocol PathMonitor: AnyObject {
    /// The path now.
    var path: NetworkPath { get }
    /// Calls `observer` with the current path at once and then with every change.
    func observe(_ observer: @escaping @MainActor (NetworkPath) -> Void) -> ObservationToken
}
