import CourierDomain
import CourierStore
import Foundation

/// Delivered messages seen online, kept so a chat opened offline (after a restart too) shows them at once.
///
/// Only delivered messages (`sent`, `delivered`, `read`) are held: a pending one (queued, sending, failed) lives in
/// the outbox, its one durable home, and never here — so evicting from this cache can never lose or hide a
/// message that has not reached the backend. What it holds of a conversation has no hole: every message the
/// backend has between the oldest held and the newest in compose order (`Message.composeOrder`: timestamp, then id,
/// the one order of docs/design.md §2.3, which the backend keeps too), since a page it serves is shown as the
/// conversation. Pages come whole; single messages (a send's answer, the feed's) join only at or after the oldest
/// held one: one composed earlier — a message written offline and delivered late — would stand over messages
/// never held. Such a message is held back (in memory) until what is held reaches over its place — a page reaching
/// back, which may have been read before the backend had it, or a message joining after it — which takes it in.
/// Bounded: the newest `messagesPerConversation` of each conversation and `totalMessages` in all, dropping the least
/// recently used conversation (stored or read) first.
///
/// Every change is appended to `RecordStorage` as one record; opening replays them. When dead records
/// dominate the log, it is compacted. A storage failure is logged and the cache goes on in memory: it is a cache.
/// Safe to call from any thread; no call waits on anything but a short lock.
public final class MessageCache: @unchecked Sendable {
    private struct Thread {
        /// Compose order (`Message.composeOrder`), oldest first.
        var messages: [Message] = []
        /// The ids of `messages`.
        var ids: Set<MessageID> = []
        /// Whether `messages` starts at the conversation's first message.
        var reachesStart = false
        /// This device's messages held from their send's answer whose echo the feed has not brought yet.
        var unechoed: Set<MessageID> = []
    }

    /// How many records the log may hold before compaction is considered.
    private static let compactionFloor = 512

    private let lock = NSLock()
    private let storage: any RecordStorage
    private let logger: Logger
    /// The limits it keeps to.
    public let limits: MessageCacheLimits
    private var threads = LRUCache<ConversationID, Thread>(capacity: Int.max)
    private var total = 0
    /// Conversations forgotten because what was held could have a hole: only a page from the backend or the feed's
    /// arrivals start them again. A message stored meanwhile (a send's late answer) may be older than what the
    /// backend got since, and a chat read from the cache would show it as the newest.
    private var forgotten = Set<ConversationID>()
    /// Messages the backend holds that were stored here when they could not be kept — composed before the oldest
    /// held, or into a forgotten conversation — by conversation, with whether they await their echo: a page the
    /// backend read before it had one of them may come after, and reach back over its place (seed 92533), or a message
    /// joining after one of them may (seed 88193). They are taken in then. In memory, a few per conversation: a page
    /// read after a relaunch has them.
    private var heldBack: [ConversationID: [(message: Message, answered: Bool)]] = [:]
    /// How many messages `heldBack` keeps per conversation (the oldest go first).
    private static let heldBackLimit = 32
    private var logRecords = 0

    /// Opens the cache on `storage`, replaying what it holds. Records this code cannot read are skipped and logged.
    /// Throws what `storage.loadRecords()` throws.
    public init(
        storage: any RecordStorage, limits: MessageCacheLimits = .init(), logger: Logger = .silent
    ) throws {
        self.storage = storage
        self.limits = limits
        self.logger = logger
        let records = try storage.loadRecords()
        var unreadable = 0
        for data in records {
            guard let record = try? MessageCacheRecord.decode(data) else {
                unreadable += 1
                continue
            }
            replay(record)
        }
        if unreadable > 0 { logger.log(.warning, "message cache: skipped \(unreadable) unreadable records") }
        logRecords = records.count
        // Replay leaves the total cap to the explicit `drop` records, then enforces it once.
        append(evictPastTotal().map { MessageCacheRecord(.drop, conversation: $0) })
    }

    // MARK: - Reading

    /// How many messages are held.
    public var count: Int { lock.withLock { total } }

    /// How many conversations have messages held.
    public var conversationCount: Int { lock.withLock { threads.count } }

    /// The held messages of `conversation`, oldest first (does not count as a use).
    public func messages(in conversation: ConversationID) -> [Message] {
        lock.withLock { threads.peek(conversation)?.messages ?? [] }
    }

    /// A page served from the cache, as `MessageRepository.messages` would answer: up to `limit` held messages just
    /// before `cursor` (the newest when nil), oldest first. `hasMore` is true unless the cache holds the start of
    /// the conversation. Nil when the cache cannot answer (nothing held before the cursor, start not reached).
    public func page(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> MessagePage? {
        lock.withLock {
            guard let thread = threads.value(for: conversation) else { return nil }
            let candidates =
                cursor.map { cursor in thread.messages.prefix { $0.cursor < cursor } }
                ?? thread.messages[...]
            if candidates.isEmpty && !thread.reachesStart { return nil }
            let page = Array(candidates.suffix(max(0, limit)))
            return MessagePage(messages: page, hasMore: candidates.count > page.count || !thread.reachesStart)
        }
    }

    /// The held messages of `conversation` that come after `message` in compose order (`Message.composeOrder`),
    /// newest first (does not count as a use): it costs the number of them, not the number held.
    public func messages(after message: Message, in conversation: ConversationID) -> [Message] {
        lock.withLock {
            guard let thread = threads.peek(conversation) else { return [] }
            return Array(
                thread.messages.reversed().prefix { $0.id != message.id && Message.composeOrder(message, $0) })
        }
    }

    /// The timestamp of the newest message held of `conversation` (does not count as a use): a message composed
    /// there is stamped after it.
    public func newestTimestamp(in conversation: ConversationID) -> Date? {
        lock.withLock { threads.peek(conversation)?.messages.last?.timestamp }
    }

    /// The conversations it holds messages of, in id order.
    public var conversationIDs: [ConversationID] { lock.withLock { threads.keysLeastRecentFirst.sorted() } }

    /// Whether the message with this id is held in `conversation` (does not count as a use).
    public func contains(_ id: MessageID, in conversation: ConversationID) -> Bool {
        lock.withLock { threads.peek(conversation)?.ids.contains(id) ?? false }
    }

    /// Whether the message with this id is held in `conversation` from its send's answer (`keepDelivered(_:)`) and
    /// its echo has not come (`echoesCame(_:)`): the feed has not reached it, so messages of others filed before it
    /// may not be held yet. Kept across launches.
    public func awaitsEcho(_ id: MessageID, in conversation: ConversationID) -> Bool {
        lock.withLock { threads.peek(conversation)?.unechoed.contains(id) ?? false }
    }

    /// The message with this id as held in `conversation` (does not count as a use), searched from the newest: it
    /// costs the distance from the newest, which for a message just sent is none.
    public func message(_ id: MessageID, in conversation: ConversationID) -> Message? {
        lock.withLock {
            guard let thread = threads.peek(conversation), thread.ids.contains(id) else { return nil }
            return thread.messages.last { $0.id == id }
        }
    }

    /// The id of the message held in `conversation` whose backend id (`Message.serverID`) is `serverID`, searched
    /// from the newest (does not count as a use); nil when none is.
    public func id(forServerID serverID: String, in conversation: ConversationID) -> MessageID? {
        lock.withLock { threads.peek(conversation)?.messages.last { $0.serverID == serverID }?.id }
    }

    /// The held messages of `sender` in `conversation` up to `upTo` (in compose order) whose status `kind` raises
    /// (`MessageStatus.raised(by:)`), raised: what a receipt changes. Every one of them up to `upTo` is looked at (a
    /// conversation holds at most `MessageCacheLimits.messagesPerConversation`): statuses need not fall with age,
    /// since a message sent again is answered with the status the backend's markers give it, so one already raised
    /// can stand above older ones not yet raised (simulation seed 43535). Stores nothing: pass them to `store(_:)`.
    public func raisedStatuses(
        in conversation: ConversationID, from sender: UserID, upTo: MessageCursor, by kind: Receipt.Kind
    ) -> [Message] {
        lock.withLock {
            guard let messages = threads.peek(conversation)?.messages else { return [] }
            var raised: [Message] = []
            for message in messages.reversed() where message.senderID == sender && message.cursor <= upTo {
                let status = message.status.raised(by: kind)
                if status == message.status { continue }
                var changed = message
                changed.status = status
                raised.append(changed)
            }
            return raised.reversed()
        }
    }

    // MARK: - Writing

    /// Keeps the delivered ones of `messages` (a sent message, a status update, the feed's new messages, in the order
    /// they reached the backend); pending ones are ignored, and so is one composed before the oldest message held of
    /// its conversation (the first of `messages` when none is held), unless the start of the conversation is held.
    /// A conversation `forget(_:)` dropped keeps nothing until a page of it is stored, or messages that `arrived`
    /// through the feed (the newest the backend has of it as they come).
    public func store(_ messages: [Message], arrived: Bool = false) {
        store(messages, arrived: arrived, answered: false)
    }

    /// `store(_:arrived:)`, marking what it holds as awaiting its echo when `answered`, in the same append.
    private func store(_ messages: [Message], arrived: Bool, answered: Bool) {
        let delivered = messages.filter { !$0.status.isPending }
        guard !delivered.isEmpty else { return }
        lock.withLock {
            var records: [MessageCacheRecord] = []
            for conversation in Set(delivered.map(\.conversationID)).sorted() {
                if arrived { forgotten.remove(conversation) }
                let offered = delivered.filter { $0.conversationID == conversation }
                let mine = forgotten.contains(conversation) ? [] : joining(offered, conversation)
                holdBack(offered.filter { message in !mine.contains { $0.id == message.id } }, answered: answered)
                guard !mine.isEmpty else { continue }
                apply(mine, to: conversation, reachesStart: false, answered: answered)
                records += mine.map { MessageCacheRecord(put: $0, answered: answered) }
                // A message joining past one held back reaches over its place as a page would (seed 88193: the echo
                // of a late answer came while its conversation was forgotten, and a later send's answer joined after
                // it — a hole, and a receipt that never raised it).
                records += takeHeldBack(in: conversation)
            }
            records += evictPastTotal().map { MessageCacheRecord(.drop, conversation: $0) }
            append(records)
        }
    }

    /// Keeps a page loaded from the backend; a page without `hasMore` marks the start of the conversation as held.
    public func store(_ page: MessagePage, in conversation: ConversationID) {
        let delivered = page.messages.filter { !$0.status.isPending && $0.conversationID == conversation }
        var records = delivered.map { MessageCacheRecord(put: $0) }
        if !page.hasMore { records.append(MessageCacheRecord(.start, conversation: conversation)) }
        guard !records.isEmpty else { return }
        lock.withLock {
            forgotten.remove(conversation)
            apply(delivered, to: conversation, reachesStart: !page.hasMore)
            records += takeHeldBack(in: conversation)
            records += evictPastTotal().map { MessageCacheRecord(.drop, conversation: $0) }
            append(records)
        }
    }

    /// Forgets everything held of `conversation` (durably, as an eviction does): what it held can no longer be
    /// trusted to be whole. Until a page of it or the feed's arrivals are stored, messages stored of it are not kept
    /// (in this launch).
    public func forget(_ conversation: ConversationID) {
        lock.withLock {
            forgotten.insert(conversation)
            guard let dropped = threads.removeValue(for: conversation) else { return }
            total -= dropped.messages.count
            append([MessageCacheRecord(.drop, conversation: conversation)])
        }
    }

    /// Forgets the message `id` of `conversation` (its sender deleted it), durably; returns it as it was held, or nil
    /// when it was not. What is held stays whole: the backend no longer has it either.
    @discardableResult
    public func remove(_ id: MessageID, in conversation: ConversationID) -> Message? {
        lock.withLock {
            heldBack[conversation]?.removeAll { $0.message.id == id }
            guard let removed = removeHeld(id, in: conversation) else { return nil }
            append([MessageCacheRecord(remove: id, in: conversation)])
            return removed
        }
    }

    /// The feed brought the echoes of these messages of this device (or they will not come: a start-over's
    /// snapshot stands past them): none awaits its echo any more. One append for them all.
    public func echoesCame(_ ids: [(id: MessageID, conversation: ConversationID)]) {
        guard !ids.isEmpty else { return }
        lock.withLock {
            var records: [MessageCacheRecord] = []
            for (id, conversation) in ids {
                if let index = heldBack[conversation]?.firstIndex(where: { $0.message.id == id }) {
                    heldBack[conversation]?[index].answered = false
                }
                guard var thread = threads.peek(conversation), thread.unechoed.remove(id) != nil else { continue }
                threads.set(thread, for: conversation)
                records.append(MessageCacheRecord(.echoed, id, in: conversation))
            }
            append(records)
        }
    }

    /// Every echo awaited (a start-over's snapshot stands past them all).
    public func allAwaitedEchoes() -> [(id: MessageID, conversation: ConversationID)] {
        lock.withLock {
            threads.keysLeastRecentFirst.flatMap { conversation in
                (threads.peek(conversation)?.unechoed.sorted() ?? []).map { (id: $0, conversation: conversation) }
            }
        }
    }

    // MARK: - State (with the lock held, or from init)

    private func removeHeld(_ id: MessageID, in conversation: ConversationID) -> Message? {
        guard var thread = threads.peek(conversation), thread.ids.contains(id),
            let index = thread.messages.firstIndex(where: { $0.id == id })
        else { return nil }
        let removed = thread.messages.remove(at: index)
        thread.ids.remove(id)
        thread.unechoed.remove(id)
        total -= 1
        if thread.messages.isEmpty && !thread.reachesStart {
            _ = threads.removeValue(for: conversation)
        } else {
            threads.set(thread, for: conversation)
        }
        return removed
    }

    /// The ones of `messages` (all of `conversation`) that join what is held without leaving a hole.
    private func joining(_ messages: [Message], _ conversation: ConversationID) -> [Message] {
        let thread = threads.peek(conversation)
        if thread?.reachesStart == true { return messages }
        guard let oldest = thread?.messages.first ?? messages.first else { return messages }
        return messages.filter { !Message.composeOrder($0, oldest) }
    }

    private func replay(_ record: MessageCacheRecord) {
        let conversation = record.conversation
        switch record.operation {
        case .put, .answered:
            guard let message = record.message else { return }
            apply([message], to: conversation, reachesStart: false, answered: record.operation == .answered)
        case .start:
            apply([], to: conversation, reachesStart: true)
        case .drop:
            if let dropped = threads.removeValue(for: conversation) { total -= dropped.messages.count }
        case .remove:
            if let id = record.namedID { _ = removeHeld(id, in: conversation) }
        case .echoed:
            guard let id = record.namedID, var thread = threads.peek(conversation), thread.unechoed.remove(id) != nil
            else { return }
            threads.set(thread, for: conversation)
        }
    }

    /// Takes `messages` into `conversation`'s thread; `answered`: kept from their send's answer, they await their
    /// echo (a message no longer held after the limits awaits nothing).
    private func apply(
        _ messages: [Message], to conversation: ConversationID, reachesStart: Bool, answered: Bool = false
    ) {
        var thread = threads.value(for: conversation) ?? Thread()
        if answered { thread.unechoed.formUnion(messages.lazy.map(\.id)) }
        let before = thread.messages.count
        if Self.goAfter(messages, thread) {
            // The usual arrival: new messages after every held one — appended, at the cost of the messages alone.
            thread.messages.append(contentsOf: messages)
            thread.ids.formUnion(messages.lazy.map(\.id))
        } else {
            var byID = Dictionary(thread.messages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for message in messages {
                // A late copy of an older status never moves a held message backwards.
                if let held = byID[message.id], held.status > message.status { continue }
                byID[message.id] = message
            }
            thread.messages = byID.values.sorted(by: Message.composeOrder)
            thread.ids = Set(byID.keys)
        }
        if reachesStart { thread.reachesStart = true }
        let excess = thread.messages.count - limits.messagesPerConversation
        if excess > 0 {
            for message in thread.messages.prefix(excess) {
                thread.ids.remove(message.id)
                thread.unechoed.remove(message.id)
            }
            thread.messages.removeFirst(excess)
            thread.reachesStart = false
        }
        total += thread.messages.count - before
        threads.set(thread, for: conversation)
    }

    /// Remembers `messages`, which could not be kept, for a page that reaches back over their place.
    private func holdBack(_ messages: [Message], answered: Bool) {
        for message in messages {
            var held = heldBack[message.conversationID] ?? []
            held.removeAll { $0.message.id == message.id }
            held.append((message, answered))
            heldBack[message.conversationID] = Array(held.suffix(Self.heldBackLimit))
        }
    }

    /// Takes in the messages held back of `conversation` that now join what is held (a page reached back over their
    /// place) and that it does not hold already; answers their records. The ones held are forgotten.
    private func takeHeldBack(in conversation: ConversationID) -> [MessageCacheRecord] {
        guard let waiting = heldBack[conversation], let thread = threads.peek(conversation) else { return [] }
        // Only within what is held: past its newest, the backend may have messages a page has not brought.
        let fresh = waiting.filter { waiting in
            !thread.ids.contains(waiting.message.id)
                && thread.messages.last.map { !Message.composeOrder($0, waiting.message) } ?? false
        }
        let joined = Set(joining(fresh.map(\.message), conversation).map(\.id))
        var records: [MessageCacheRecord] = []
        for answered in [false, true] {
            let taking = fresh.filter { $0.answered == answered && joined.contains($0.message.id) }.map(\.message)
            guard !taking.isEmpty else { continue }
            apply(taking, to: conversation, reachesStart: false, answered: answered)
            records += taking.map { MessageCacheRecord(put: $0, answered: answered) }
        }
        let left = waiting.filter { !thread.ids.contains($0.message.id) && !joined.contains($0.message.id) }
        heldBack[conversation] = left.isEmpty ? nil : left
        return records
    }

    /// Whether `messages` are new to `thread`, in compose order, and all after its newest message.
    private static func goAfter(_ messages: [Message], _ thread: Thread) -> Bool {
        guard let first = messages.first else { return true }
        if let last = thread.messages.last, !Message.composeOrder(last, first) { return false }
        for index in messages.indices {
            if thread.ids.contains(messages[index].id) { return false }
            if index > 0, !Message.composeOrder(messages[index - 1], messages[index]) { return false }
        }
        return true
    }

    /// Drops least recently used conversations until the total fits; returns their ids.
    private func evictPastTotal() -> [ConversationID] {
        var dropped: [ConversationID] = []
        while total > limits.totalMessages, let (conversation, thread) = threads.removeLeastRecent() {
            total -= thread.messages.count
            dropped.append(conversation)
        }
        return dropped
    }

    // MARK: - Storage (with the lock held, so no append slips between a compaction's snapshot and its write)

    private func append(_ records: [MessageCacheRecord]) {
        guard !records.isEmpty else { return }
        do {
            try storage.append(records.map { $0.encoded() })
            logRecords += records.count
        } catch {
            logger.log(.warning, "message cache: storing \(records.count) records failed (\(error))")
            return
        }
        if logRecords >= Self.compactionFloor && logRecords > 2 * (total + threads.count) { compact() }
    }

    private func compact() {
        var records: [MessageCacheRecord] = []
        // Least recently used first, so a replay rebuilds the same order of use.
        for conversation in threads.keysLeastRecentFirst {
            guard let thread = threads.peek(conversation) else { continue }
            records += thread.messages.map { MessageCacheRecord(put: $0, answered: thread.unechoed.contains($0.id)) }
            if thread.reachesStart { records.append(MessageCacheRecord(.start, conversation: conversation)) }
        }
        do {
            let live = records.map { $0.encoded() }
            try storage.compact(keeping: live)
            logRecords = live.count
        } catch {
            logger.log(.warning, "message cache: compaction failed (\(error))")
        }
    }
}

extension MessageCache: DeliveredMessageKeeper {
    /// Keeps what an outbox's backend stored, as `store(_:arrived:)` keeps a sent message, each awaiting its echo
    /// (`awaitsEcho(_:in:)`) until `echoesCame(_:)`.
    public func keepDelivered(_ messages: [Message]) { store(messages, arrived: false, answered: true) }
}
