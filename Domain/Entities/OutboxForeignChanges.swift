#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What other processes changed in a shared outbox since it was last asked (`FileOutboxStore.refresh()`).
public struct OutboxForeignChanges: Sendable, Equatable {
    /// Messages added or changed, as they now are, in compose order.
    public var changed: [Message] = []
    /// Messages removed.
    public var removed: [MessageID] = []

    /// Creates a set of changes (none by default).
    public init(changed: [Message] = [], removed: [MessageID] = []) {
        self.changed = changed
        self.removed = removed
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { changed.isEmpty && removed.isEmpty }
}
