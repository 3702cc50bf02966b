import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FileOutboxStore {
    // MARK: - Sharing

    /// Reads what other processes appended to a shared log since this store last read it and returns every change
    /// they made (also those read while this store was changing the log itself). Cheap when nothing changed: a
    /// size and identity check, no lock. An exclusive store has nothing to read and returns no change.
    public func refresh() throws -> OutboxForeignChanges {
        if log.mayHaveForeignChanges { try mutate { _ in } }
        return lock.withLock {
            defer { foreignChanges = OutboxForeignChanges() }
            return foreignChanges
        }
    }

    /// Runs `body` with the log to itself (under the append lock when shared), after taking in what others appended.
    package func mutate<T>(_ body: (RecordLog.LockedWriter) throws -> T) throws -> T {
        try lock.withLock {
            try log.transaction { tail, writer in
                try absorb(tail)
                return try body(writer)
            }
        }
    }

    /// Applies the records other processes appended (or, after their compaction, the whole new log) to the index,
    /// and notes what changed for `refresh()`. Call with `lock` held.
    private func absorb(_ tail: RecordLog.TailChange) throws {
        let updated: OutboxIndex
        switch tail {
        case .none:
            return
        case .replaced(let contents, let bodies):
            let replayed = Self.replay(contents, bodies: bodies, logger: logger)
            if let incompatible = replayed.incompatible { throw incompatible }
            updated = replayed.index
        case .appended(let contents, let bodies):
            var replay = OutboxReplay(continuing: index, logger: logger)
            try contents.withUnsafeBytes { bytes in
                for body in bodies {
                    do {
                        try replay.apply(body: UnsafeRawBufferPointer(rebasing: bytes[body]))
                    } catch let newer as RecordNewerVersion {
                        let current = OutboxRecord.currentVersion
                        throw StoreError.incompatible(
                            "outbox record version \(newer.version); this build reads up to \(current)")
                    } catch {
                        logger.log(.warning, "outbox: skipped an unreadable record another process wrote: \(error)")
                    }
                }
            }
            updated = replay.index
        }
        note(from: index.byID, to: updated.byID)
        index = updated
    }

    /// Adds the differences between two states of the outbox to `foreignChanges`.
    private func note(from old: [MessageID: Message], to new: [MessageID: Message]) {
        let changed = new.values.filter { old[$0.id] != $0 }
        let removed = old.keys.filter { new[$0] == nil }
        guard !changed.isEmpty || !removed.isEmpty else { return }
        let gone = Set(removed)
        let changedIDs = Set(changed.map(\.id))
        let kept = foreignChanges.changed.filter { !gone.contains($0.id) && !changedIDs.contains($0.id) }
        foreignChanges.changed = (kept + changed).sorted(by: Message.composeOrder)
        foreignChanges.removed = foreignChanges.removed.filter { !changedIDs.contains($0) } + removed
    }
}
