#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A list of observers on the main actor; each `observe` returns the token that removes it. Observers are called
/// on the main actor; a token may be cancelled or released on any thread, and its observer is gone when that returns.
@MainActor
public final class ObserverList<Value> {
    /// The observers behind a lock, so that a token released off the main actor removes its observer at once.
    private final class Entries: @unchecked Sendable {
        private let lock = Lock()
        private var observers: [Int: (Value) -> Void] = [:]
        /// The keys of `observers` in the order they were added (ascending): a notification reads them as they are,
        /// without sorting.
        private var order: [Int] = []
        private var nextKey = 0

        var isEmpty: Bool { lock.withLock { observers.isEmpty } }
        var keys: [Int] { lock.withLock { order } }

        func add(_ observer: @escaping (Value) -> Void) -> Int {
            lock.withLock {
                let key = nextKey
                nextKey += 1
                observers[key] = observer
                order.append(key)
                return key
            }
        }

        func observer(_ key: Int) -> ((Value) -> Void)? { lock.withLock { observers[key] } }

        func remove(_ key: Int) {
            lock.withLock {
                guard observers.removeValue(forKey: key) != nil else { return }
                // Keys ascend: a binary search finds it.
                var (low, high) = (0, order.count)
                while low < high {
                    let middle = (low + high) / 2
                    if order[middle] < key { low = middle + 1 } else { high = middle }
                }
                if low < order.count, order[low] == key { order.remove(at: low) }
            }
        }
    }

    private let entries = Entries()

    /// Creates an empty list.
    public init() {}

    /// Whether anyone observes.
    public var isEmpty: Bool { entries.isEmpty }

    /// Adds an observer; it stays until the token is cancelled or released.
    public func add(_ observer: @escaping @MainActor (Value) -> Void) -> ObservationToken {
        // Only `notify`, on the main actor, ever calls the observer.
        let key = entries.add { value in MainActor.assumeIsolated { observer(value) } }
        return ObservationToken { [weak entries] in entries?.remove(key) }
    }

    /// Calls every observer, in the order they were added; one removed meanwhile (by an earlier observer) is skipped.
    public func notify(_ value: Value) {
        for key in entries.keys { entries.observer(key)?(value) }
    }
}
