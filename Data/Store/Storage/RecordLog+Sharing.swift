import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A record log several processes append to at once (docs/storage-format.md §2, "Shared logs").
///
/// Each append is a short cross-process critical section: an exclusive `flock` on `<path>.lock`, held while the
/// process reads what the others appended since it last looked, decides what to write, writes it and syncs it. The
/// kernel drops the lock of a process that dies, and a frame it left half-written is cut by the next holder (it was
/// never acknowledged). A compaction happens under the same lock and renames a new file over the log; a process
/// notices by the path no longer naming its open file and reads the new file whole.
extension RecordLog {
    /// What other processes did to a shared log since this process last read it.
    public enum TailChange {
        /// Nothing.
        case none
        /// Records appended after the ones this process has read: the bodies at `bodies` in `contents`, in order.
        case appended(contents: Data, bodies: [Range<Int>])
        /// The log was compacted into a new file: these are all its records, replacing what was read before.
        case replaced(contents: Data, bodies: [Range<Int>])
    }

    /// Writes to the log from inside `transaction(_:)`, while its locks are held.
    public struct LockedWriter {
        let log: RecordLog

        /// How many records the file holds, live or dead (`RecordLog.recordCount`, read under the held lock).
        public var recordCount: Int { log.isShared ? log.records : log.recordCount }

        /// Appends records in order with one write and one sync; returns once all are durable.
        public func append(contentsOf payloads: [Data]) throws {
            if log.sharedLockPath == nil { return try log.append(contentsOf: payloads) }
            try log.appendHoldingLocks(payloads)
        }

        /// Replaces the log's content by `payloads`, as `RecordLog.compact(keeping:)`.
        public func compact(keeping payloads: [Data]) throws {
            if log.sharedLockPath == nil { return try log.compact(keeping: payloads) }
            try log.replaceContents(
                with: try RecordLog.frames(of: payloads, startingWith: RecordFrame.fileHeader), records: payloads.count)
        }
    }

    /// Whether this log is shared between processes (opened with `shared`).
    public var isShared: Bool { sharedLockPath != nil }

    /// Runs `body` with the log to itself: on a shared log, under the cross-process append lock, after reading what
    /// others appended (given to `body` first, so that what it decides is decided on the whole log). On a log with
    /// one owner, `body` gets `.none` and appends as `append(contentsOf:)` does, sharing syncs with other appenders.
    public func transaction<T>(_ body: (TailChange, LockedWriter) throws -> T) throws -> T {
        guard let sharedLockPath else { return try body(.none, LockedWriter(log: self)) }
        condition.lock()
        defer { condition.unlock() }
        let handle = try usableHandle()
        // Deleted under the process (`rm -r client/`), lock file and all: say so, as an owner's log does.
        if !fileSystem.exists(path) { try checkStillInPlace(handle) }
        let appendLock = try heldAppendLock(sharedLockPath)
        defer { releaseAppendLock(appendLock) }
        let tail = try catchUp()
        return try body(tail, LockedWriter(log: self))
    }

    /// Whether another process may have changed the log since this one last read it: the path names another file,
    /// or the file's size is not where this process's reading ended. Cheap (two `stat`s), and no lock is taken.
    public var mayHaveForeignChanges: Bool {
        condition.withLock {
            guard isShared, let handle, failure == nil else { return false }
            return fileSystem.sizeIfCurrent(handle, at: path) != endOffset
        }
    }

    // MARK: - Holding the locks

    /// Locks the lock file kept open since the last append (or opens it). A lock on a file that no longer has the
    /// lock's path (`rm -r client/` under the process) would exclude nobody: it is opened anew from the path then.
    /// Call with `condition` held.
    private func heldAppendLock(_ lockPath: String) throws -> FileSystemHandle {
        if let kept = appendLockHandle {
            appendLockHandle = nil
            do {
                try fileSystem.lockWaiting(kept)
                if fileSystem.isCurrent(kept, at: lockPath) { return kept }
            } catch {}
            fileSystem.close(kept)
        }
        return try Self.takeAppendLock(lockPath, fileSystem: fileSystem)
    }

    /// Unlocks the lock file and keeps it open for the next append; closes it (which unlocks it too) when the
    /// unlock fails. Call with `condition` held.
    private func releaseAppendLock(_ appendLock: FileSystemHandle) {
        do {
            try fileSystem.unlock(appendLock)
            appendLockHandle = appendLock
        } catch {
            fileSystem.close(appendLock)
        }
    }

    /// Reads what others did since this process last read. Call with both locks held.
    private func catchUp() throws -> TailChange {
        let handle = try usableHandle()
        let size = try fileSystem.size(of: handle)
        if !fileSystem.isCurrent(handle, at: path) || size < endOffset {
            // Deleted under the process (`rm -r client/`): as `checkStillInPlace` says, nothing may be acknowledged.
            guard fileSystem.exists(path) else {
                try checkStillInPlace(handle)
                return .none
            }
            return try reread(replacing: handle)
        }
        guard size > endOffset else { return .none }
        let tail = try fileSystem.read(handle, from: endOffset)
        let scan = try tail.withUnsafeBytes { try Self.replay($0, path: path, from: 0) }
        if scan.validEnd < tail.count { try cutTornTail(at: endOffset + scan.validEnd, of: handle) }
        if scan.corrupt > 0 { logger.log(.warning, "\(path): \(scan.corrupt) damaged record(s) skipped in a tail") }
        endOffset += scan.validEnd
        durableOffset = endOffset
        allocatedSize = endOffset
        records += scan.records.count
        return .appended(contents: tail, bodies: scan.records)
    }

    /// The path names a new file (a compaction): reads it whole in place of the old one.
    private func reread(replacing old: FileSystemHandle) throws -> TailChange {
        let fresh = try fileSystem.open(path, create: false)
        fileSystem.close(old)
        handle = fresh
        let contents = try fileSystem.readAll(fresh)
        try Self.checkHeader(contents, path: path)
        let scan = try contents.withUnsafeBytes { try Self.replay($0, path: path) }
        if scan.validEnd < contents.count { try cutTornTail(at: scan.validEnd, of: fresh) }
        endOffset = scan.validEnd
        durableOffset = endOffset
        allocatedSize = endOffset
        records = scan.records.count
        return .replaced(contents: contents, bodies: scan.records)
    }

    /// A process killed mid-append left a partial frame: it was never acknowledged, so it goes.
    private func cutTornTail(at offset: Int, of handle: FileSystemHandle) throws {
        logger.log(.warning, "\(path): cutting an append cut short at byte \(offset)")
        try fileSystem.truncate(handle, to: offset)
        try fileSystem.sync(handle)
    }

    /// Writes and syncs `payloads` at the end. Call with both locks held.
    fileprivate func appendHoldingLocks(_ payloads: [Data]) throws {
        guard !payloads.isEmpty else { return }
        let frames = try Self.frames(of: payloads, startingWith: Data())
        let handle = try usableHandle()
        do {
            try fileSystem.write(frames, at: endOffset, to: handle)
        } catch {
            do { try fileSystem.truncate(handle, to: endOffset) } catch { poison(by: error) }
            throw error
        }
        do { try fileSystem.sync(handle) } catch {
            // What reached the disk is unknown: the log refuses every call until it is reopened.
            poison(by: error)
            throw error
        }
        endOffset += frames.count
        durableOffset = endOffset
        allocatedSize = endOffset
        records += payloads.count
        try checkStillInPlace(handle)
    }
}
