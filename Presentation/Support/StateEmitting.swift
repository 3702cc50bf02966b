import CourierDomain

/// A view model's output: something whose whole state can be observed.
@MainActor
public protocol StateEmitting: AnyObject {
    /// The immutable state a screen renders.
    associatedtype State: Equatable
    /// The current state.
    var state: State { get }
    /// Calls `observer` with the current state at once, then with every change, until the token is released.
    func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken
}
