import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The outbox on a `RecordLog`: `DIR/outbox.log`, one record per change (docs/design.md §4, invariant 4).
///
/// Every mutating call validates first, then appends one record and syncs it, then changes memory; a refused call
/// changes nothing, in memory or on disk. Reads come from an in-memory index (O(1) lookup, `all()` without a sort).
/// When dead records dominate the file (more than twice the live messages plus 1,000), the call that noticed
/// compacts the log into one `put` per live message. Calls are serialised by one lock; the log's group commit
/// still lets other logs' writers share the disk.
///
/// With `.exclusive` access (the default) there is one owner per directory: the log is locked while open, so a
/// second store on the same directory (in this process or another) is refused with `StoreError.locked(path:)`
/// naming the directory until the first is closed. With `.owner` or `.guest` access the log is shared: any number of
/// stores, in any processes, change it at once, each change under a cross-process append lock after reading what
/// the others appended (FileOutboxStore+Sharing). Closing twice is harmless.
public final class FileOutboxStore: OutboxStore, @unchecked Sendable {
    /// The log's file name inside the directory.
    public static let fileName = "outbox.log"

    /// What opening the log found and repaired (records it could not use count as corrupt).
    public let recovery: RecoveryReport
    /// The limits this store enforces.
    public let limits: OutboxLimits

    /// How this store shares its directory's log.
    public let access: OutboxAccess

    let log: RecordLog
    let logger: Logger
    let lock = Lock()
    var index: OutboxIndex
    /// Messages other processes changed or removed, read under the append lock and not yet handed to `refresh()`.
    var foreignChanges = OutboxForeignChanges()

    /// The messages found `sending` at open and queued again, in compose order.
    public private(set) var requeuedAtOpen: [MessageID] = []

    // MARK: - Opening

    /// Opens (creating when absent) the outbox in `directory` and replays it. Messages found `sending` — their
    /// send was cut off — go back to `queued`, durably, to be resent later with the same id (not by a `.guest`, whose
    /// directory's owner may be sending them right now). Throws
    /// `StoreError.locked(path:)` when the directory's outbox is open already, `StoreError.incompatible` for a log
    /// written by a newer format and `StoreError.io` when the disk fails.
    public init(
        directory: URL, fileSystem: any FileSystem = PosixFileSystem(), limits: OutboxLimits = .init(),
        logger: Logger = .silent, access: OutboxAccess = .exclusive
    ) throws {
        try fileSystem.createDirectory(directory.path)
        let path = directory.appendingPathComponent(Self.fileName).path
        let opened: (log: RecordLog, contents: Data, bodies: [Range<Int>], report: RecoveryReport)
        do {
            opened = try RecordLog.openInPlace(
                path: path, fileSystem: fileSystem, logger: logger, shared: access != .exclusive)
        } catch let error as StoreError where error.code == .locked {
            throw StoreError.locked(path: directory.path)
        }
        let replayed = Self.replay(opened.contents, bodies: opened.bodies, logger: logger)
        if let incompatible = replayed.incompatible { throw incompatible }
        var report = opened.report
        report.corruptRecords += replayed.unusable
        if replayed.unusable > 0 {
            logger.log(.warning, "\(path): \(replayed.unusable) unusable record(s) skipped")
        }
        self.log = opened.log
        self.logger = logger
        self.limits = limits
        self.recovery = report
        self.access = access
        index = replayed.index
        guard access != .guest else { return }
        try mutate { writer in
            try requeueCutOffSends(writer)
            compactIfDominatedByDeadRecords(writer)
        }
    }

    // MARK: - OutboxStore

    public func enqueue(_ message: Message) throws {
        try mutate { writer in try insert(message, writer) }
    }

    /// Stores a message composed here, stamped after its conversation's compose mark (`Message.composeStamp`), the
    /// mark read under the append lock from the log itself — never from this process's memory alone, which another
    /// process may have outdated — so stamps strictly increase across every process composing into the log.
    public func enqueueComposed(_ message: Message) throws -> Message {
        try mutate { writer in
            var message = message
            message.timestamp = Message.composeStamp(
                now: message.timestamp, after: index.composeMark(in: message.conversationID))
            try insert(message, writer)
            return message
        }
    }

    private func insert(_ message: Message, _ writer: RecordLog.LockedWriter) throws {
        guard index[message.id] == nil else { throw StoreError.duplicateID(message.id.rawValue) }
        guard index.count < limits.capacity else { throw StoreError.capacityReached(limit: limits.capacity) }
        let payload = try encodeWithinLimit(.put(message))
        try writer.append(contentsOf: [payload])
        index.insert(message)
        compactIfDominatedByDeadRecords(writer)
    }

    public func remove(_ id: MessageID) throws {
        try mutate { writer in
            guard index[id] != nil else { throw InputError.unknownMessage(id) }
            try writer.append(contentsOf: [encode(.removal(of: id))])
            index.remove(id)
            compactIfDominatedByDeadRecords(writer)
        }
    }

    /// One write and one sync for the `remove` records of all of them: when it returns every one is gone for good;
    /// a crash before that may have removed some (each record is whole or cut), never anything else.
    public func remove(_ ids: [MessageID]) throws {
        guard !ids.isEmpty else { return }
        try mutate { writer in
            if let unknown = ids.first(where: { index[$0] == nil }) { throw InputError.unknownMessage(unknown) }
            try writer.append(contentsOf: ids.map { encode(.removal(of: $0)) })
            for id in ids { index.remove(id) }
            compactIfDominatedByDeadRecords(writer)
        }
    }

    public func all() -> [Message] { lock.withLock { index.all } }

    public func pending(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message] {
        lock.withLock { index.page(in: conversation, before: cursor, limit: limit) }
    }

    public func composeMark(in conversation: ConversationID) -> Date? {
        lock.withLock { index.composeMark(in: conversation) }
    }

    public func message(_ id: MessageID) -> Message? { lock.withLock { index[id] } }

    public var count: Int { lock.withLock { index.count } }

    public func count(of status: MessageStatus) -> Int { lock.withLock { index.count(of: status) } }

    public func count(in conversation: ConversationID) -> Int { lock.withLock { index.count(in: conversation) } }

    public var requestedCount: Int { lock.withLock { index.requestedCount } }

    public func removeAll() throws {
        try mutate { writer in
            guard index.count > 0 else { return }
            try writer.append(contentsOf: [encode(.clearing)])
            index.removeAll()
            compactIfDominatedByDeadRecords(writer)
        }
    }

    @discardableResult
    public func updateText(of id: MessageID, to text: String) throws -> Message {
        let edit = { (current: Message) throws -> Message in
            var message = current
            message.text = text
            // The limit holds for the message as a compaction will store it, not only for this small record.
            _ = try self.encodeWithinLimit(.put(message))
            return message
        }
        return try change(id, recordedAs: { _ in .textChange(of: id, to: text) }, edit)
    }

    /// Changes the status (only along `MessageStatus.canTransition`, else `StoreError.invalidTransition`), sets
    /// `statusUpdatedAt` to `date`, the attempt count when `attempts` is given, and the last error to `lastError`
    /// (nil clears it).
    @discardableResult
    public func updateStatus(
        of id: MessageID, to status: MessageStatus, at date: Date, attempts: Int?, lastError: DeliveryError?
    ) throws -> Message {
        try change(id, recordedAs: OutboxRecord.statusChange(of:)) {
            try $0.changingStatus(to: status, at: date, attempts: attempts, lastError: lastError)
        }
    }

    @discardableResult
    public func requestSendAll() throws -> [Message] {
        try mutate { writer in
            let asked = index.all.filter { ($0.status == .queued || $0.status == .failed) && !$0.sendRequested }
            guard !asked.isEmpty else { return [] }
            // One record marks them all, whatever their number: replay sets the flag on every waiting message.
            try writer.append(contentsOf: [encode(.sendAll)])
            return asked.map { message in
                var requested = message
                requested.sendRequested = true
                index.replace(requested)
                return requested
            }
        }
    }

    /// Closes the log; later changes throw `StoreError.io`.
    public func close() { log.close() }

    // MARK: - Private

    /// Changes the held message `id` to what `edit` makes of it (`InputError.unknownMessage` when there is none): the
    /// edit validates first, then its record is appended and synced, then memory changes — a refused edit changes
    /// nothing.
    private func change(
        _ id: MessageID, recordedAs record: (Message) -> OutboxRecord, _ edit: (Message) throws -> Message
    ) throws -> Message {
        try mutate { writer in
            guard let current = index[id] else { throw InputError.unknownMessage(id) }
            let message = try edit(current)
            try writer.append(contentsOf: [encode(record(message))])
            index.replace(message)
            compactIfDominatedByDeadRecords(writer)
            return message
        }
    }

    /// Sends cut off by a crash go back to the queue, one record each, synced together: `unanswered`, because the
    /// backend may hold them already (their outcome is unknown: `Message.outcomeUnknown`, so they keep their text
    /// until a resend settles it, and a backend whose duplicate answer could hide another text reads it back).
    private func requeueCutOffSends(_ writer: RecordLog.LockedWriter) throws {
        // The counts say at once whether any send was cut off: the usual launch skips a pass over every message.
        guard index.count(of: .sending) > 0 else { return }
        let cutOff = index.all.filter { $0.status == .sending }
        guard !cutOff.isEmpty else { return }
        var requeued: [Message] = []
        for var message in cutOff {
            message.status = .queued
            message.lastError = .unanswered
            message.outcomeUnknown = true
            requeued.append(message)
        }
        try writer.append(contentsOf: requeued.map { encode(.statusChange(of: $0)) })
        for message in requeued { index.replace(message) }
        requeuedAtOpen = requeued.sorted(by: Message.composeOrder).map(\.id)
        logger.log(.info, "outbox: \(requeued.count) interrupted sends queued again")
    }

    private func encode(_ record: OutboxRecord) -> Data { record.encoded() }

    private func encodeWithinLimit(_ record: OutboxRecord) throws -> Data {
        let payload = encode(record)
        guard payload.count <= limits.maxMessageBytes else {
            throw StoreError.recordTooLarge(bytes: payload.count, limit: limits.maxMessageBytes)
        }
        return payload
    }

    /// Rewrites the log as one stamp mark per conversation (so its stamps never go back) and one `put` per live
    /// message, in compose order, when dead records dominate. The change that triggered it is
    /// durable already, so a failure here is logged, not thrown: the longer log stays correct.
    /// A `.guest` leaves compaction to the directory's owner. Shared, it runs under the append lock, after the
    /// others' appends were read: everything it keeps is the whole log's live state, so no append is dropped.
    private func compactIfDominatedByDeadRecords(_ writer: RecordLog.LockedWriter) {
        guard access != .guest, writer.recordCount > 2 * index.count + 1_000 else { return }
        do {
            let marks = index.stampMarks.sorted { $0.key < $1.key }.map { encode(.mark($0.key, stamp: $0.value)) }
            try writer.compact(keeping: marks + index.all.map { encode(.put($0)) })
        } catch {
            logger.log(.warning, "outbox: compaction failed, keeping the longer log: \(error)")
        }
    }
}
