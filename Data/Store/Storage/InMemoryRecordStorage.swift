import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `RecordStorage` in memory: what tests reopen a store from to prove that its records are enough to rebuild it,
/// and what an app can use for a store that needs to last one run only.
public final class InMemoryRecordStorage: RecordStorage, @unchecked Sendable {
    private let lock = Lock()
    private var stored: [Data]
    private var appendCount = 0
    private var compactionCount = 0
    private var failing = false

    /// Creates a storage holding `records` (none by default), as if reopened after a restart.
    public init(records: [Data] = []) { stored = records }

    // MARK: - Inspection

    /// Every record stored, oldest first.
    public var records: [Data] { lock.withLock { stored } }

    /// How many `append` calls succeeded.
    public var appends: Int { lock.withLock { appendCount } }

    /// How many compactions ran.
    public var compactions: Int { lock.withLock { compactionCount } }

    /// While true, every append and compaction throws `StoreError.io` and stores nothing, like a full disk.
    public var failsWrites: Bool {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }

    // MARK: - RecordStorage

    /// Every record stored, oldest first.
    public func loadRecords() throws -> [Data] { records }

    /// Appends `records`, or throws `StoreError.io` while `failsWrites` is set.
    public func append(_ records: [Data]) throws {
        try lock.withLock {
            if failing { throw StoreError.io("simulated write failure") }
            stored += records
            appendCount += 1
        }
    }

    /// Replaces every record with `records`, or throws `StoreError.io` while `failsWrites` is set.
    public func compact(keeping records: [Data]) throws {
        try lock.withLock {
            if failing { throw StoreError.io("simulated write failure") }
            stored = records
            compactionCount += 1
        }
    }
}
