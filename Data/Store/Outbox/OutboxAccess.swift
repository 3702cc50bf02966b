/// How a `FileOutboxStore` shares its directory's `outbox.log` (docs/storage-format.md §2, "Shared logs").
public enum OutboxAccess: Sendable {
    /// One owner: the log is locked while the store is open, and a second store on it is refused.
    case exclusive
    /// Shared, as the directory's app: it queues again at open the sends a crash cut off and compacts the log. Other
    /// processes may append at the same time; who sends is the `OutboxLease`'s holder (docs/design.md §2.8).
    case owner
    /// Shared, as an app extension: it appends beside the app and leaves requeueing and compaction to it; it sends
    /// only while it holds the `OutboxLease`.
    case guest
}
