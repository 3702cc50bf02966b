import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RecordLog {
    // MARK: - Opening

    /// Opens (creating when absent) the log at `path` and replays it.
    ///
    /// Returns the intact records in append order. Repairs on the way, and says so in the report:
    /// - zero bytes after the last intact record, up to the end of the file, are space written ahead of the records
    ///   (`allocationStep(after:)`), not damage: the log ends where they start, and they stay for later appends;
    /// - a torn tail — bytes after the last intact record that hold no intact record and are not all zero — is
    ///   truncated (an append cut short by a crash was never acknowledged), zero-filled space after it included;
    /// - a damaged record followed by intact ones is skipped and counted; reading resumes at the next intact
    ///   frame, found by its marker.
    /// Throws `StoreError.locked(path:)` when the log is open already (in this process or another: one owner per
    /// file, held by an exclusive lock on it until `close()`), `StoreError.incompatible` for a file that is not a
    /// record log or was written by a newer format, and `StoreError.io` when the disk fails. A `<path>.compact` left
    /// by a compaction cut short is removed.
    public static func open(
        path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent
    ) throws -> (log: RecordLog, records: [Data], report: RecoveryReport) {
        let opened = try openInPlace(path: path, fileSystem: fileSystem, logger: logger)
        let records = opened.contents.withUnsafeBytes { bytes in
            opened.bodies.map { Data(UnsafeRawBufferPointer(rebasing: bytes[$0])) }
        }
        return (opened.log, records, opened.report)
    }

    /// Opens and replays the log at `path` as `open(path:fileSystem:logger:)` does, handing back the file's bytes
    /// and where each intact record's body lies in them (offsets from the first byte of `contents`, in append
    /// order) instead of a copy of each body: a store that decodes every record at open reads them in place.
    ///
    /// With `shared`, the file is not locked for one owner: the open takes the append lock beside it
    /// (`<path>.lock`) while it reads and repairs, and the log appends through `transaction(_:)` (RecordLog+Sharing).
    package static func openInPlace(
        path: String, fileSystem: any FileSystem = PosixFileSystem(), logger: Logger = .silent, shared: Bool = false
    ) throws -> (log: RecordLog, contents: Data, bodies: [Range<Int>], report: RecoveryReport) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var appendLock: FileSystemHandle?
        if shared { appendLock = try takeAppendLock(path + ".lock", fileSystem: fileSystem) }
        var handedOver = false
        defer { if let appendLock, !handedOver { fileSystem.close(appendLock) } }
        let existed = fileSystem.exists(path)
        let handle =
            shared ? try fileSystem.open(path, create: true) : try openExclusively(path, fileSystem: fileSystem)
        do {
            // Only the owner may clear a compaction cut short: another owner's could be under way.
            let leftover = path + ".compact"
            if fileSystem.exists(leftover) { try fileSystem.remove(leftover) }
            let contents = try fileSystem.readAll(handle)
            var report = RecoveryReport()
            var records: [Range<Int>] = []
            var size = contents.count
            var allocated = contents.count
            if contents.count < RecordFrame.fileHeaderSize {
                // New, or created by a crash before its header was synced.
                guard contents.elementsEqual(RecordFrame.fileHeader.prefix(contents.count)) else {
                    throw StoreError.incompatible("\(path) is not a Courier record log")
                }
                report.truncatedBytes = contents.count
                try fileSystem.truncate(handle, to: 0)
                try fileSystem.write(RecordFrame.fileHeader, at: 0, to: handle)
                try fileSystem.sync(handle)
                if !existed || contents.count > 0 { try fileSystem.syncDirectory(directory) }
                size = RecordFrame.fileHeaderSize
                allocated = size
            } else {
                try checkHeader(contents, path: path)
                let scan = try contents.withUnsafeBytes { try replay($0, path: path) }
                records = scan.records
                report.corruptRecords = scan.corrupt
                size = scan.validEnd
                // Read through a pointer: `Data`'s own iterator costs a call per byte of the space written ahead.
                if !contents.withUnsafeBytes({ $0[scan.validEnd...].allSatisfy { $0 == 0 } }) {
                    report.truncatedBytes = contents.count - scan.validEnd
                    try fileSystem.truncate(handle, to: scan.validEnd)
                    try fileSystem.sync(handle)
                    allocated = scan.validEnd
                } else if shared, scan.validEnd < contents.count {
                    // A shared log is never written ahead: its size is where the next process appends.
                    try fileSystem.truncate(handle, to: scan.validEnd)
                    try fileSystem.sync(handle)
                    allocated = scan.validEnd
                }
            }
            report.recoveredRecords = records.count
            if !report.isClean { logger.log(.warning, "\(path): \(report)") }
            // The lock file stays open, unlocked, for the appends to come: one `open` per process, not per append.
            if let appendLock, (try? fileSystem.unlock(appendLock)) != nil { handedOver = true }
            let log = RecordLog(
                path: path, handle: handle, size: size, allocated: allocated, records: records.count,
                fileSystem: fileSystem, logger: logger, sharedLockPath: shared ? path + ".lock" : nil,
                appendLockHandle: handedOver ? appendLock : nil)
            return (log, contents, records, report)
        } catch {
            fileSystem.close(handle)
            throw error
        }
    }

    /// Opens `path` and locks it. A lock taken on a file that another owner's compaction has just renamed away would
    /// guard nothing, so the lock counts only when `path` still names the locked file.
    ///
    /// A child process forked by another thread holds a copy of every descriptor until it execs, and with it a lock
    /// this process has just released (an app restart reopening its logs): a held lock is tried a few more times,
    /// 4 ms apart (at most 0.1 s), before it is reported.
    private static func openExclusively(_ path: String, fileSystem: any FileSystem) throws -> FileSystemHandle {
        var heldTries = 0
        var renamedTries = 0
        while true {
            let handle = try fileSystem.open(path, create: true)
            let locked: Bool
            do { locked = try fileSystem.tryLock(handle) } catch {
                fileSystem.close(handle)
                throw error
            }
            if locked, fileSystem.isCurrent(handle, at: path) { return handle }
            fileSystem.close(handle)
            if locked {
                renamedTries += 1
                if renamedTries >= 3 { break }
            } else {
                heldTries += 1
                if heldTries >= heldLockTries { break }
                usleep(4_000)
            }
        }
        throw StoreError.locked(path: path)
    }

    /// Opens (creating) the append lock file at `path` and waits for its lock: the handle holds it until closed.
    package static func takeAppendLock(_ path: String, fileSystem: any FileSystem) throws -> FileSystemHandle {
        let handle = try fileSystem.open(path, create: true)
        do {
            try fileSystem.lockWaiting(handle)
        } catch {
            fileSystem.close(handle)
            throw error
        }
        return handle
    }

    /// Tries before a held lock is reported.
    private static let heldLockTries = 25

    // MARK: - Replay

    package static func checkHeader(_ contents: Data, path: String) throws {
        let header = [UInt8](contents.prefix(RecordFrame.fileHeaderSize))
        guard header.prefix(4).elementsEqual(RecordFrame.fileMagic) else {
            throw StoreError.incompatible("\(path) is not a Courier record log")
        }
        let version = header[4...].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard version == RecordFrame.fileVersion else {
            throw StoreError.incompatible(
                "\(path) has format version \(version); this build reads version \(RecordFrame.fileVersion)")
        }
    }

    /// Walks the frames after the header. `validEnd` is where the last intact frame ends. A zero word where a marker
    /// would start ends the walk, unless an intact frame follows further on (then it is damage, skipped as any).
    /// Starts at `start` (after the header unless told: a shared log's new tail is walked from its first byte).
    package static func replay(
        _ bytes: UnsafeRawBufferPointer, path: String, from start: Int = RecordFrame.fileHeaderSize
    ) throws -> (records: [Range<Int>], corrupt: Int, validEnd: Int) {
        var records: [Range<Int>] = []
        var corrupt = 0
        var offset = start
        while offset < bytes.count {
            // The usual end of a log written ahead: no frame starts with zeros, so no scan is needed to know it.
            if RecordFrame.isZeroWord(bytes, at: offset), bytes[offset...].allSatisfy({ $0 == 0 }) {
                return (records, corrupt, offset)
            }
            switch RecordFrame.parse(bytes, at: offset, maxBody: maxRecordBytes) {
            case .record(let body, let end):
                records.append(body)
                offset = end
            case .unsupportedVersion(let version):
                throw StoreError.incompatible("\(path) holds a record of frame version \(version) at byte \(offset)")
            case .damaged:
                guard let next = nextFrame(in: bytes, after: offset) else { return (records, corrupt, offset) }
                corrupt += max(1, markers(in: bytes, from: offset, to: next))
                offset = next
            }
        }
        return (records, corrupt, offset)
    }

    /// The offset of the first intact frame after `offset`, if any.
    private static func nextFrame(in bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
        var candidate = offset + 1
        while candidate + RecordFrame.headerSize <= bytes.count {
            if bytes[candidate] == RecordFrame.marker[0], RecordFrame.hasMarker(bytes, at: candidate) {
                switch RecordFrame.parse(bytes, at: candidate, maxBody: maxRecordBytes) {
                case .record, .unsupportedVersion: return candidate
                case .damaged: break
                }
            }
            candidate += 1
        }
        return nil
    }

    /// How many frame markers start in `start..<end`: the damaged records a skipped stretch held.
    private static func markers(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        (start..<end).reduce(0) { count, index in RecordFrame.hasMarker(bytes, at: index) ? count + 1 : count }
    }
}
