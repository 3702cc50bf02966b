import Foundation

/// A `MessageCacheStorage` in memory: for tests, and for an app that wants the cache for one run only.
public final class InMemoryMessageCacheStorage: MessageCacheStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Data]
    private var compactions = 0

    /// Creates a storage holding `records` (empty by default), as if reopened after a restart.
    public init(records: [Data] = []) { stored = records }

    /// Everything stored, oldest first.
    public var records: [Data] { lock.withLock { stored } }

    /// How many times the records were compacted.
    public var compactionCount: Int { lock.withLock { compactions } }

    public func load() throws -> [Data] { records }

    public func append(_ records: [Data]) throws { lock.withLock { stored += records } }

    public func compact(keeping records: [Data]) throws {
        lock.withLock {
            stored = records
            compactions += 1
        }
    }
}
