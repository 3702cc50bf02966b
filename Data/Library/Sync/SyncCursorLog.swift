import CourierDomain
import CourierStore
import Foundation

/// The sync engine's durable state: the feed cursor (the last event applied), how many times the device started
/// over, and the conversations whose cached unread count may be short as of that cursor. One small record per change
/// in a `RecordStorage` (`sync.log`); the newest readable record wins when it opens, and the log is compacted to that
/// one record now and then.
final class SyncCursorLog {
    /// What one record holds.
    struct State: Codable, Equatable {
        var cursor: FeedPosition?
        var resets: Int
        /// `SyncEngine.uncertainCounts` when the cursor moved, nil when there are none (as records of earlier builds
        /// have it): a count the feed left short must still take the next page's count after a relaunch (seed 83930).
        var uncertain: [ConversationID]? = nil
    }

    private static let compactionFloor = 256
    private let storage: any RecordStorage
    private let logger: Logger
    private var records: Int
    /// The state as last written (or read at open).
    private(set) var state: State

    /// Opens the log over `storage`; unreadable records are skipped and logged. Throws what the storage throws.
    init(storage: any RecordStorage, logger: Logger) throws {
        self.storage = storage
        self.logger = logger
        let loaded = try storage.loadRecords()
        records = loaded.count
        state = State(cursor: nil, resets: 0)
        var unreadable = 0
        for data in loaded {
            if let decoded = try? JSONDecoder().decode(State.self, from: data) {
                state = decoded
            } else {
                unreadable += 1
            }
        }
        if unreadable > 0 { logger.log(.warning, "sync: skipped \(unreadable) unreadable cursor records") }
    }

    /// Writes `state` durably. Throws what the storage throws; the state in memory changes only once it is stored.
    func write(_ state: State) throws {
        guard state != self.state else { return }
        let data = try JSONEncoder().encode(state)
        if records >= Self.compactionFloor {
            try storage.compact(keeping: [data])
            records = 1
        } else {
            try storage.append([data])
            records += 1
        }
        self.state = state
    }
}
