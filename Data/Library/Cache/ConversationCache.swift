import CourierDomain
import CourierStore
import Foundation

/// The conversations the list has seen online, kept on disk so that the list still shows them offline after a
/// relaunch. One `ConversationCacheRecord` per conversation as last seen; the newest record of an id wins when the
/// cache opens.
/// When superseded records outnumber live ones, the storage is compacted to one record per conversation.
public final class ConversationCache: @unchecked Sendable {
    private let lock = NSLock()
    private let storage: any RecordStorage
    private let logger: Logger
    private var byID: [ConversationID: Conversation] = [:]
    private var recordCount = 0

    /// Opens the cache over `storage`; a record that cannot be read is skipped (and logged). Throws when the storage
    /// cannot be read at all.
    public init(storage: any RecordStorage, logger: Logger = .silent) throws {
        self.storage = storage
        self.logger = logger
        for record in try storage.loadRecords() {
            recordCount += 1
            if let conversation = try? ConversationCacheRecord.decode(record).conversation {
                byID[conversation.id] = conversation
            } else if let removed = ConversationCacheRecord.removedID(in: record) {
                byID[removed] = nil
            } else {
                logger.log(.warning, "conversation cache: skipped a record that cannot be read")
            }
        }
    }

    /// How many conversations it holds.
    public var count: Int { lock.withLock { byID.count } }

    /// The conversation with this id as last kept, if any.
    public func conversation(_ id: ConversationID) -> Conversation? { lock.withLock { byID[id] } }

    /// Keeps `conversations` as they are now (durable when it returns; a storage failure is logged and the cache
    /// keeps serving what it held).
    public func store(_ conversations: [Conversation]) {
        guard !conversations.isEmpty else { return }
        lock.withLock {
            let changed = conversations.filter { byID[$0.id] != $0 }
            guard !changed.isEmpty else { return }
            do {
                try storage.append(changed.map { ConversationCacheRecord($0).encoded() })
                recordCount += changed.count
                for conversation in changed { byID[conversation.id] = conversation }
            } catch {
                logger.log(.warning, "conversation cache: could not store \(changed.count) conversations (\(error))")
                return
            }
            compactIfWasteful()
        }
    }

    /// Keeps the rows of a page the backend answered, each reconciled with the row held by its last message, and
    /// returns them as kept. The last message (id, compose position) says how far a row has seen: a page whose row
    /// ends before the held one was read before events the sync has applied since, and the held row stays (with the
    /// page's name and participants); a page's row that ends at the same message is taken with the higher status and
    /// the later activity, and the backend's count where `countsHold` says so (no read of this device is on its way
    /// there), else the lower of the two; a newer one replaces it — the sync will not count again an arriving message
    /// that is not newer than a row's last (`SyncEngine`'s `touch`).
    public func take(_ page: [Conversation], countsHold: (ConversationID) -> Bool = { _ in false }) -> [Conversation] {
        let trusted = Set(page.map(\.id).filter(countsHold))
        let kept = lock.withLock {
            page.map { Self.reconciled($0, with: byID[$0.id], countHolds: trusted.contains($0.id)) }
        }
        store(kept)
        return kept
    }

    /// Forgets the conversation `id` (the user deleted it), durably: a relaunch offline does not list it again. A
    /// storage failure is logged and the cache keeps serving what it held.
    public func remove(_ id: ConversationID) {
        lock.withLock {
            guard byID[id] != nil else { return }
            do {
                try storage.append([ConversationCacheRecord.removal(of: id)])
                recordCount += 1
                byID[id] = nil
            } catch {
                logger.log(.warning, "conversation cache: could not forget \(id) (\(error))")
                return
            }
            compactIfWasteful()
        }
    }

    /// The cached page after `cursor` (most recent activity first, ties by id), or nil when the cache holds
    /// nothing at all.
    public func page(after cursor: ConversationCursor?, limit: Int) -> ConversationPage? {
        lock.withLock {
            guard !byID.isEmpty else { return nil }
            let ordered = byID.values.sorted(by: Self.listOrder)
            let start =
                cursor.map { cursor in
                    ordered.firstIndex { Self.listOrder(Self.marker(cursor), $0) } ?? ordered.count
                } ?? 0
            let page = Array(ordered[start...].prefix(max(1, limit)))
            return ConversationPage(conversations: page, hasMore: start + page.count < ordered.count)
        }
    }

    /// `rows` most recent activity first; rows active at the same instant keep their order.
    static func inActivityOrder(_ rows: [Conversation]) -> [Conversation] {
        rows.enumerated().sorted {
            $0.element.lastActivity != $1.element.lastActivity
                ? $0.element.lastActivity > $1.element.lastActivity : $0.offset < $1.offset
        }.map(\.element)
    }

    // MARK: - Private

    private static func reconciled(_ fresh: Conversation, with held: Conversation?, countHolds: Bool) -> Conversation {
        guard let held, let heldLast = held.lastMessage else { return fresh }
        guard let freshLast = fresh.lastMessage else {
            var kept = held
            (kept.name, kept.participantIDs) = (fresh.name, fresh.participantIDs)
            return kept
        }
        if freshLast.id == heldLast.id {
            var kept = fresh
            if !countHolds { kept.unreadCount = min(fresh.unreadCount, held.unreadCount) }
            kept.lastMessage?.status = max(freshLast.status, heldLast.status)
            kept.lastActivity = max(fresh.lastActivity, held.lastActivity)
            return kept
        }
        guard Message.composeOrder(freshLast, heldLast) else { return fresh }
        var kept = held
        (kept.name, kept.participantIDs) = (fresh.name, fresh.participantIDs)
        return kept
    }

    private static func listOrder(_ lhs: Conversation, _ rhs: Conversation) -> Bool {
        lhs.lastActivity != rhs.lastActivity ? lhs.lastActivity > rhs.lastActivity : lhs.id.rawValue < rhs.id.rawValue
    }

    private static func marker(_ cursor: ConversationCursor) -> Conversation {
        Conversation(id: cursor.id, participantIDs: [], lastActivity: cursor.lastActivity)
    }

    private func compactIfWasteful() {
        guard recordCount > 2 * byID.count + 64 else { return }
        let live = byID.values.sorted(by: Self.listOrder).map { ConversationCacheRecord($0).encoded() }
        do {
            try storage.compact(keeping: live)
            recordCount = live.count
        } catch {
            logger.log(.warning, "conversation cache: compaction failed (\(error)); the log keeps growing")
        }
    }
}
