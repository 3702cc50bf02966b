import CourierDomain

/// Holds one view model's state: replays the current state to a new observer and emits only on change.
@MainActor
public final class StateStore<State: Equatable> {
    /// The current state.
    public private(set) var state: State
    private let observers = ObserverList<State>()

    /// Creates a store holding `initial`.
    public init(_ initial: State) { state = initial }

    /// Whether anyone observes.
    public var hasObservers: Bool { !observers.isEmpty }

    /// Applies `change` in place, for a large state changed a little at a time (one row of ten thousand): `change`
    /// reports whether it changed anything, and observers hear of it only then. It costs what the change costs —
    /// `update` copies and compares the whole state.
    public func edit(_ change: (inout State) -> Bool) {
        guard change(&state) else { return }
        observers.notify(state)
    }

    /// Applies `change`; observers hear of it only if the state differs afterwards.
    public func update(_ change: (inout State) -> Void) {
        var next = state
        change(&next)
        guard next != state else { return }
        state = next
        observers.notify(next)
    }

    /// Adds an observer and replays the current state to it.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        // Added first, then replayed: a change the replay causes reaches this observer too.
        defer { observer(state) }
        return observers.add(observer)
    }
}
