/// How a `FileOutboxStore` shares its directory's `outbox.log` (docs/storage-format.md §2, "Shared logs").
public enum OutboxAccess: Sendable {
    /// One owner: the log is locked while the store is open, and a second store on it is refused.
    case exclusive
    /// Shared, as the directory's owner — the process that does the background work (sending, compaction): it
    /// queues again the sends a crash cut off and compacts the log. Other processes may append at the same time.
    case owner
    /// Shared, as a process that only composes (an app extension's one-shot send): it appends beside the owner and
    /// leaves sending, requeueing and compaction to it.
    case guest
}
