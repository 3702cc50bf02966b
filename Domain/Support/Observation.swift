/// Keeps an observation alive; the observation ends when the token is cancelled or released.
public final class ObservationToken: @unchecked Sendable {
    private var onCancel: (() -> Void)?

    /// Creates a token that runs `onCancel` once, when cancelled or released.
    public init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Ends the observation.
    public func cancel() {
        let action = onCancel
        onCancel = nil
        action?()
    }

    deinit { cancel() }
}

/// A list of observers on the main actor; each `observe` returns the token that removes it.
@MainActor
public final class ObserverList<Value> {
    private var observers: [Int: (Value) -> Void] = [:]
    private var nextKey = 0

    /// Creates an empty list.
    public init() {}

    /// Whether anyone observes.
    public var isEmpty: Bool { observers.isEmpty }

    /// Adds an observer; it stays until the token is cancelled or released.
    public func add(_ observer: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        let key = nextKey
        nextKey += 1
        observers[key] = observer
        return ObservationToken { [weak self] in
            MainActor.assumeIsolated { _ = self?.observers.removeValue(forKey: key) }
        }
    }

    /// Calls every observer, in the order they were added.
    public func notify(_ value: Value) {
        for key in observers.keys.sorted() { observers[key]?(value) }
    }
}
