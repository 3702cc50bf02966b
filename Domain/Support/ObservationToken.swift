#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keeps an observation alive; the observation ends when the token is cancelled or released — from any thread or
/// task: the cancel action runs once, whoever gets there first.
public final class ObservationToken: @unchecked Sendable {
    private let lock = Lock()
    private var onCancel: (() -> Void)?

    /// Creates a token that runs `onCancel` once, when cancelled or released.
    public init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Ends the observation.
    public func cancel() {
        let action = lock.withLock {
            let action = onCancel
            onCancel = nil
            return action
        }
        action?()
    }

    deinit { cancel() }
}
