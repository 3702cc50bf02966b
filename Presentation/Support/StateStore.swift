import CourierDomain

/// Holds one view model's state: replays the current state to a new observer and emits only on change.
@MainActor
public final class StateStore<State: Equatable> {
    /// The current state.
    public private(set) var state: State
    private let observers = ObserverList<State>()
    /// How many `batch` calls are under way: while one is, observers hear nothing until it ends.
    private var batchDepth = 0
    /// Whether a change in the batch under way changed the state.
    private var changedInBatch = false

    /// Creates a store holding `initial`.
    public init(_ initial: State) { state = initial }

    /// Whether anyone observes.
    public var hasObservers: Bool { !observers.isEmpty }

    /// Applies `change` in place, for a large state changed a little at a time (one row of ten thousand): `change`
    /// reports whether it changed anything, and observers hear of it only then. It costs what the change costs —
    /// `update` copies and compares the whole state.
    public func edit(_ change: (inout State) -> Bool) {
        guard change(&state) else { return }
        changed()
    }

    /// Applies `change`; observers hear of it only if the state differs afterwards.
    public func update(_ change: (inout State) -> Void) {
        var next = state
        change(&next)
        guard next != state else { return }
        state = next
        changed()
    }

    /// Applies the changes `body` makes (through `update` and `edit`) as one: observers hear the state once, when
    /// `body` returns, if any of them changed it — one event that moves several parts of a screen is one state
    /// (docs/design.md §5). A batch inside another is part of it.
    public func batch(_ body: () -> Void) {
        batchDepth += 1
        body()
        batchDepth -= 1
        guard batchDepth == 0, changedInBatch else { return }
        changedInBatch = false
        observers.notify(state)
    }

    /// Tells observers of a change now, or at the end of the batch under way.
    private func changed() {
        if batchDepth > 0 {
            changedInBatch = true
        } else {
            observers.notify(state)
        }
    }

    /// Adds an observer and replays the current state to it.
    public func observe(_ observer: @escaping @MainActor (State) -> Void) -> ObservationToken {
        // Added first, then replayed: a change the replay causes reaches this observer too.
        defer { observer(state) }
        return observers.add(observer)
    }
}
