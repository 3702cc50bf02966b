import CourierDomain
import CourierStore
import Foundation

/// The queued writes in delivery order, in memory, made durable as records in a `RecordStorage`.
///
/// Every change is appended to storage first and applied in memory only once the append succeeded, so a failed
/// write changes nothing. Lookups by id and key are O(1); delivery order comes from a sequence number given on
/// insertion, kept in an array where removed writes leave gaps that are swept out when they dominate. The log
/// is compacted the same way: when dead records outnumber live ones, it is rewritten as one `put` per write.
final class WriteQueueJournal {
    private struct Entry {
        var write: PendingWrite
        let sequence: UInt64
    }

    private struct Slot {
        let sequence: UInt64
        let id: String
    }

    private let storage: any RecordStorage
    private let logger: Logger
    private var entries: [String: Entry] = [:]
    private var order: [Slot] = []
    private var newestIDByKey: [String: String] = [:]
    private var nextSequence: UInt64 = 1
    private var recordsInLog = 0

    /// How many stored records could not be read at open (corrupt or of an unknown version); they were skipped.
    private(set) var skippedRecords = 0

    /// Opens the journal: replays every stored record.
    init(storage: any RecordStorage, logger: Logger) throws {
        self.storage = storage
        self.logger = logger
        let stored = try storage.loadRecords()
        for bytes in stored {
            do {
                apply(try WriteQueueRecord.decode(bytes))
            } catch {
                skippedRecords += 1
                logger.log(.warning, "write queue: skipped an unreadable record (\(error))")
            }
        }
        recordsInLog = stored.count
        compactIfWorthwhile()
    }

    // MARK: - Reading

    /// How many writes are queued.
    var count: Int { entries.count }

    /// Every queued write, in delivery order.
    var all: [PendingWrite] { order.compactMap { live($0)?.write } }

    /// The queued write with this id.
    func write(id: String) -> PendingWrite? { entries[id]?.write }

    /// The most recently queued write with this coalescing key.
    func newest(forKey key: String) -> PendingWrite? { newestIDByKey[key].flatMap { entries[$0]?.write } }

    /// The first queued write after position `sequence` (0 for the very first), with its position.
    func next(after sequence: UInt64) -> (sequence: UInt64, write: PendingWrite)? {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if order[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
        }
        for slot in order[low...] {
            if let entry = live(slot) { return (entry.sequence, entry.write) }
        }
        return nil
    }

    // MARK: - Changing (durable first)

    /// Queues `writes` at the end, in order, each removing the write with id `replacing` in the same record: one
    /// append for all of them.
    func insert(_ writes: [(write: PendingWrite, replacing: String?)]) throws {
        guard !writes.isEmpty else { return }
        try persist(writes.map { .put($0.write, replacing: $0.replacing) })
    }

    /// Removes the writes with these ids (those still queued).
    func remove(_ ids: [String], because reason: WriteQueueRecord.RemovalReason) throws {
        let present = ids.filter { entries[$0] != nil }
        guard !present.isEmpty else { return }
        try persist(present.map { .remove($0, because: reason) })
        compactIfWorthwhile()
    }

    /// Stores the attempt count and last error of `write`, if it is still queued.
    func recordAttempt(_ write: PendingWrite) throws {
        guard entries[write.id] != nil else { return }
        try persist([.attempt(write)])
    }

    /// Removes the writes created before `cutoff`; returns them, in delivery order.
    func removeCreated(before cutoff: Date) throws -> [PendingWrite] {
        let stale = all.filter { $0.createdAt < cutoff }
        try remove(stale.map(\.id), because: .expired)
        return stale
    }

    /// Removes every write: the log is compacted to nothing.
    func removeAll() throws {
        try storage.compact(keeping: [])
        entries = [:]
        order = []
        newestIDByKey = [:]
        recordsInLog = 0
    }

    // MARK: - Records

    private func persist(_ records: [WriteQueueRecord]) throws {
        let encoded = records.map { $0.encoded() }
        try storage.append(encoded)
        recordsInLog += encoded.count
        records.forEach(apply)
    }

    private func apply(_ record: WriteQueueRecord) {
        switch record.operation {
        case .put:
            guard let write = record.write else {
                skippedRecords += 1
                return
            }
            if let replaced = record.replaces { forget(replaced) }
            forget(write.id)
            entries[write.id] = Entry(write: write, sequence: nextSequence)
            order.append(Slot(sequence: nextSequence, id: write.id))
            nextSequence += 1
            if let key = write.key { newestIDByKey[key] = write.id }
        case .remove:
            forget(record.id)
        case .attempt:
            entries[record.id]?.write.attempts = record.attempts ?? 0
            entries[record.id]?.write.lastError = record.lastError
        }
    }

    private func forget(_ id: String) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if let key = entry.write.key, newestIDByKey[key] == id { newestIDByKey[key] = nil }
        if order.count > 2 * entries.count + 64 { order.removeAll { live($0) == nil } }
    }

    private func live(_ slot: Slot) -> Entry? {
        guard let entry = entries[slot.id], entry.sequence == slot.sequence else { return nil }
        return entry
    }

    private func compactIfWorthwhile() {
        guard recordsInLog > 2 * entries.count + 64 else { return }
        do {
            let records = all.map { WriteQueueRecord.put($0).encoded() }
            try storage.compact(keeping: records)
            recordsInLog = records.count
        } catch {
            // The log as it is stays valid; compaction is only a saving, so the next change tries again.
            logger.log(.warning, "write queue: compaction failed (\(error))")
        }
    }
}
