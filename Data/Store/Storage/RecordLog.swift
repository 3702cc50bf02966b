import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An append-only, checksummed log of opaque records, durable record by record (docs/design.md §4).
///
/// - An append returns once its records are written and synced; concurrent appends share one sync (group commit):
///   the first waiter syncs everything written so far while the others wait, and each returns as soon as a sync
///   covers its bytes.
/// - Opening replays the file (see `open`): a torn tail is truncated, a damaged record is skipped and reported.
/// - The file grows ahead of its records, in zero-filled steps (`allocationStep(after:)`): most appends then overwrite
///   bytes the file already holds, so their sync flushes the data alone and not the file's new size. A zero word
///   where the next frame's marker would be ends the log (docs/storage-format.md).
/// - `compact(keeping:)` rewrites the live records into a new file and renames it over the log atomically.
///
/// One owner per file: opening locks the file until `close()`, and a second open (in this process or another) is
/// refused. An append is acknowledged only while the path still names the open file: once the file has been deleted
/// or replaced, the append throws and so does every later call.
///
/// Thread-safe. Appends issued concurrently land in the file in some order; callers that need an order between two
/// appends issue them one after the other. After a failed sync the log refuses every call until it is reopened,
/// because the kernel may have dropped the unsynced bytes (what is on disk is then decided by the next open).
/// The byte format is in docs/storage-format.md.
public final class RecordLog: @unchecked Sendable {
    /// The largest payload one record may hold (16 MiB).
    public static let maxRecordBytes = 16 << 20

    let path: String
    let directory: String
    let fileSystem: any FileSystem
    let logger: Logger
    /// Guards everything below; appenders waiting for a sync sleep on it.
    let condition = Lock()
    var handle: FileSystemHandle?
    /// Bytes written (header included); the next frame goes here.
    var endOffset: Int
    /// The file's size: `endOffset` plus the zero-filled bytes written ahead of the records.
    var allocatedSize: Int
    /// Bytes known to be synced.
    var durableOffset: Int
    var records: Int
    /// Whether some appender is syncing right now (with the lock released).
    private var isSyncing = false
    /// Set by a failed sync; every later call throws it.
    var failure: StoreError?
    /// In shared mode (`openShared`), the lock file every process holds while it appends; nil for one owner.
    let sharedLockPath: String?
    /// In shared mode, the lock file kept open between appends (unlocked), so that an append costs no `open`.
    var appendLockHandle: FileSystemHandle?

    init(
        path: String, handle: FileSystemHandle, size: Int, allocated: Int, records: Int, fileSystem: any FileSystem,
        logger: Logger, sharedLockPath: String? = nil, appendLockHandle: FileSystemHandle? = nil
    ) {
        self.path = path
        self.sharedLockPath = sharedLockPath
        self.appendLockHandle = appendLockHandle
        directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        self.handle = handle
        endOffset = size
        allocatedSize = max(size, allocated)
        durableOffset = size
        self.records = records
        self.fileSystem = fileSystem
        self.logger = logger
    }

    deinit { close() }

    // MARK: - Reading the state

    /// The log's size in bytes, header and records (the file may be longer: zero-filled space written ahead).
    public var byteCount: Int { condition.withLock { endOffset } }

    /// How far the file grows when an append of `needed` bytes in all would pass its end: by as much as the log
    /// holds, at least 64 KiB and at most 1 MiB, to a whole 4 KiB page. A small log stays small; a busy one grows
    /// once per MiB.
    static func allocationStep(after needed: Int) -> Int {
        let step = min(max(needed, 64 << 10), 1 << 20)
        return (needed + step + 4_095) / 4_096 * 4_096 - needed
    }

    /// How many records the file holds, live or dead (the caller decides which are live).
    public var recordCount: Int { condition.withLock { records } }

    // MARK: - Appending

    /// Appends one record; returns once it is durable. Throws `StoreError.recordTooLarge` past `maxRecordBytes`
    /// (nothing written) and `StoreError.io` when the disk fails.
    public func append(_ payload: Data) throws {
        try append(contentsOf: [payload])
    }

    /// Appends records in order with one write and one sync; returns once all are durable. A payload past
    /// `maxRecordBytes` refuses the whole call before anything is written.
    public func append(contentsOf payloads: [Data]) throws {
        guard !payloads.isEmpty else { return }
        var frames = try Self.frames(of: payloads, startingWith: Data())
        condition.lock()
        defer { condition.unlock() }
        let handle = try usableHandle()
        let needed = endOffset + frames.count
        let grown = needed > allocatedSize ? needed + Self.allocationStep(after: needed) : allocatedSize
        let written = frames.count
        // The zeros ride in the same write and the same sync as the frames that needed them.
        if grown > allocatedSize { frames.append(Data(count: grown - needed)) }
        do {
            try fileSystem.write(frames, at: endOffset, to: handle)
        } catch {
            // A partial frame must not stay: the caller hears "no", so the record must not come back on replay.
            do { try fileSystem.truncate(handle, to: endOffset) } catch { poison(by: error) }
            allocatedSize = endOffset
            throw error
        }
        allocatedSize = grown
        endOffset += written
        records += payloads.count
        try waitUntilDurable(endOffset)
        try checkStillInPlace(handle)
    }

    // MARK: - Compaction

    /// Replaces the log's content by `payloads`: writes them to `<path>.compact`, syncs it, renames it over the log
    /// and syncs the directory. A crash at any point leaves either the old log or the new one, whole.
    ///
    /// Appends made before this call are synced first; records not in `payloads` are dropped, so the caller must
    /// not run appends it wants kept concurrently with a compaction.
    public func compact(keeping payloads: [Data]) throws {
        let contents = try Self.frames(of: payloads, startingWith: RecordFrame.fileHeader)
        condition.lock()
        defer { condition.unlock() }
        _ = try usableHandle()
        while isSyncing || durableOffset < endOffset {
            if isSyncing { condition.wait() } else { try waitUntilDurable(endOffset) }
        }
        try replaceContents(with: contents, records: payloads.count)
    }

    /// Writes `contents` (a header and frames) to `<path>.compact`, syncs it and renames it over the log. Call with
    /// the lock held and everything appended synced (in shared mode: with the append lock held too).
    func replaceContents(with contents: Data, records count: Int) throws {
        let old = try usableHandle()
        let temporaryPath = path + ".compact"
        if fileSystem.exists(temporaryPath) { try fileSystem.remove(temporaryPath) }
        let fresh = try fileSystem.open(temporaryPath, create: true)
        do {
            // Locked before the rename, so the log is never unlocked under its name. A shared log has no owner's
            // lock on the file: the append lock beside it keeps every other writer out until the rename is done.
            if sharedLockPath == nil {
                guard try fileSystem.tryLock(fresh) else { throw StoreError.locked(path: temporaryPath) }
            }
            try fileSystem.write(contents, at: 0, to: fresh)
            try fileSystem.sync(fresh)
            try fileSystem.rename(temporaryPath, to: path)
        } catch {
            fileSystem.close(fresh)
            try? fileSystem.remove(temporaryPath)
            throw error
        }
        fileSystem.close(old)
        handle = fresh
        logger.log(.info, "compacted \(path): \(records) records, \(endOffset) bytes -> \(count), \(contents.count)")
        endOffset = contents.count
        durableOffset = contents.count
        allocatedSize = contents.count
        records = count
        // The rename is done and the new file is the log either way; syncing the directory makes it survive a crash.
        try fileSystem.syncDirectory(directory)
    }

    // MARK: - Closing

    /// Closes the file. Later calls throw `StoreError.io`.
    public func close() {
        condition.lock()
        defer { condition.unlock() }
        while isSyncing { condition.wait() }
        if let handle { fileSystem.close(handle) }
        handle = nil
        if let appendLockHandle { fileSystem.close(appendLockHandle) }
        appendLockHandle = nil
    }

    // MARK: - Private

    /// Frames for `payloads`, after `prefix`. Checks every size before building anything.
    static func frames(of payloads: [Data], startingWith prefix: Data) throws -> Data {
        var total = prefix.count
        for payload in payloads {
            guard payload.count <= maxRecordBytes else {
                throw StoreError.recordTooLarge(bytes: payload.count, limit: maxRecordBytes)
            }
            total += RecordFrame.frameSize(bodyCount: payload.count)
        }
        var frames = Data(capacity: total)
        frames.append(prefix)
        for payload in payloads { RecordFrame.append(payload, to: &frames) }
        return frames
    }

    /// The open handle, or why the log cannot be used. Call with the lock held.
    func usableHandle() throws -> FileSystemHandle {
        if let failure { throw failure }
        guard let handle else { throw StoreError.io("\(path): the log is closed") }
        return handle
    }

    /// Returns once the first `target` bytes are synced: syncs them itself unless another appender is already
    /// syncing, in which case it waits and checks again. Call with the lock held; it is released during a sync.
    private func waitUntilDurable(_ target: Int) throws {
        while durableOffset < target {
            if let failure { throw failure }
            if isSyncing {
                condition.wait()
                continue
            }
            guard let handle else { throw StoreError.io("\(path): the log is closed") }
            isSyncing = true
            let covered = endOffset
            condition.unlock()
            let result = Result { try fileSystem.sync(handle) }
            condition.lock()
            isSyncing = false
            switch result {
            case .success: durableOffset = max(durableOffset, covered)
            case .failure(let error): poison(by: error)
            }
            condition.broadcast()
        }
    }

    /// Throws (and refuses every later call) when the file was deleted or replaced under the log: what it wrote is
    /// then lost to the next reader, so nothing may be acknowledged. Call with the lock held.
    func checkStillInPlace(_ handle: FileSystemHandle) throws {
        guard !fileSystem.isCurrent(handle, at: path) else { return }
        let reason = "\(path) was deleted or replaced while it was open; nothing written to it can be read back"
        logger.log(.error, reason)
        let failure = StoreError.io(reason)
        self.failure = failure
        throw failure
    }

    /// Refuses every later call: after a failed sync or repair nobody knows which written bytes survive.
    func poison(by error: any Error) {
        let reason = (error as? StoreError)?.description ?? "\(error)"
        logger.log(.error, "\(path): \(reason); the log refuses writes until it is reopened")
        failure = StoreError.io("\(path): \(reason); reopen the log")
    }
}
