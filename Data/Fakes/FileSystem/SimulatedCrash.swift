/// What a simulated power cut (`SimulatedFileSystem.crash()`) threw away and kept.
public struct SimulatedCrash: Hashable, Sendable {
    /// Unsynced writes and truncations lost.
    public var changesLost = 0
    /// Unsynced writes and truncations that happened to reach the disk anyway (torn-write mode).
    public var changesKept = 0
    /// Kept writes cut to a prefix of their bytes.
    public var writesTorn = 0
    /// Paths whose directory entry went back to its last synced state (a file created, renamed or removed since).
    public var entriesReverted = 0
    /// Unsynced directory changes (creates, renames, removals) that happened to reach the disk anyway (torn-write
    /// mode).
    public var entryChangesKept = 0

    /// Creates an empty report.
    public init() {}
}
