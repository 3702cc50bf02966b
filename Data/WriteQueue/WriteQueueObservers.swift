import CourierDomain
import Foundation

/// The observers of a write queue, behind a lock so that `observe` and a token's release need no hop to the
/// queue's executor: releasing a token removes its observer at once.
final class WriteQueueObservers: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [Int: @Sendable (WriteQueueEvent) -> Void] = [:]
    private var nextKey = 0

    /// Adds an observer; it stays until the token is cancelled or released.
    func add(_ observer: @escaping @Sendable (WriteQueueEvent) -> Void) -> ObservationToken {
        let key: Int = lock.withLock {
            defer { nextKey += 1 }
            observers[nextKey] = observer
            return nextKey
        }
        return ObservationToken { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: key) }
        }
    }

    /// Calls every observer with `event`, in the order they were added (outside the lock, so an observer may
    /// observe or cancel).
    func notify(_ event: WriteQueueEvent) {
        let current = lock.withLock { observers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in current { observer(event) }
    }
}
