#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one durable home of every pending message — queued, sending or failed (docs/design.md §2.4).
///
/// What an implementation must do (`FileOutboxStore` is the library's; `FileOutboxStoreTests`,
/// `SimulatedCrashRecoveryTests` and `StoreOwnershipTests` check it):
/// - **Durable or nothing.** Every mutating call is durable when it returns (written and synced) or throws and
///   changes nothing; a crash at any instant loses no acknowledged change.
/// - **One place per message.** An id is stored once (`enqueue` of a stored id throws `StoreError.duplicateID`); a
///   status changes in place, only along `MessageStatus.canTransition`; nothing is evicted to make room.
/// - **Compose order.** `all()` and `pending(in:before:limit:)` answer in compose order (`Message.composeOrder`:
///   timestamp, then id). `enqueueComposed` stamps a message after the conversation's `composeMark(in:)`, and the
///   mark never goes back, even past messages already delivered and removed, a reopen or a compaction
///   (`FileOutboxStoreStampTests`):
///   ```swift
///   try store.enqueue(message("m5", at: 5))  // stamped at 5 s, then delivered
///   try store.remove("m5")
///   // … reopened, compacted: the mark stays; composed at 1 s (the clock went back):
///   #expect(try store.enqueueComposed(message("m6", at: 1)).timestamp == start.addingTimeInterval(5.001))
///   ```
/// - Implementations are safe to call from any thread.
public protocol OutboxStore: AnyObject, Sendable {
    /// Adds a pending message. Throws `StoreError.duplicateID` if its id is stored, `.recordTooLarge` or
    /// `.capacityReached` when it does not fit. A message is never evicted to make room.
    func enqueue(_ message: Message) throws
    /// Removes a message (delivered or deleted). Throws `InputError.unknownMessage` for an unknown id.
    func remove(_ id: MessageID) throws
    /// Removes several messages in one change: all of them, or — when one is unknown (`InputError.unknownMessage`) or
    /// the change cannot be stored — none.
    func remove(_ ids: [MessageID]) throws
    /// Every pending message, in compose order.
    func all() -> [Message]
    /// The pending message with this id.
    func message(_ id: MessageID) -> Message?
    /// The newest `limit` pending messages of `conversation` composed before `cursor` (the newest of all when nil),
    /// in compose order: what a chat shows first, without reading the conversation's whole queue.
    func pending(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message]
    /// How many messages are pending.
    var count: Int { get }
    /// How many pending messages have `status`: what a banner counts, without reading every message.
    func count(of status: MessageStatus) -> Int
    /// How many pending messages `conversation` has: what a chat says of the banner's count, without reading every
    /// message.
    func count(in conversation: ConversationID) -> Int
    /// How many pending messages a Send All still waits for (`Message.sendRequested`, not failed): whether one is
    /// still owed, without reading every message.
    var requestedCount: Int { get }
    /// The newest compose stamp a message of `conversation` has had in this store, including messages already
    /// delivered and removed (durable with the store); nil when it has had none. The next message composed there is
    /// stamped after it (`enqueueComposed`), so a conversation's stamps never go back whatever the clock does.
    func composeMark(in conversation: ConversationID) -> Date?
    /// Removes every message.
    func removeAll() throws
    /// Changes a message's text. Returns the updated message.
    @discardableResult
    func updateText(of id: MessageID, to text: String) throws -> Message
    /// Changes a message's status (only along `MessageStatus.canTransition`), its attempt count and last error.
    /// Returns the updated message.
    @discardableResult
    func updateStatus(
        of id: MessageID, to status: MessageStatus, at date: Date, attempts: Int?, lastError: DeliveryError?
    ) throws -> Message
    /// The messages that were `sending` when the store was opened — their send was cut off (the app died) — and
    /// are `queued` again. They were already on their way, so an outbox resends them at launch when it can.
    var requeuedAtOpen: [MessageID] { get }
    /// Stores a message composed here, its `timestamp` raised past its conversation's `composeMark(in:)` at the
    /// moment it is stored (`Message.composeStamp`; for a store other processes write too, under their common lock),
    /// which raises the mark to it. Returns the message as stored.
    func enqueueComposed(_ message: Message) throws -> Message
    /// What other processes changed since the last call (a store no other process writes: nothing).
    func refresh() throws -> OutboxForeignChanges
    /// Send All, durably: sets `sendRequested` on every queued and failed message held, in one change that outlives
    /// the process. Returns the messages it changed, in compose order.
    @discardableResult
    func requestSendAll() throws -> [Message]
}

extension OutboxStore {
    /// Checks every id, then removes them one by one: enough for a store in memory, which cannot fail half-way.
    public func remove(_ ids: [MessageID]) throws {
        if let unknown = ids.first(where: { message($0) == nil }) { throw InputError.unknownMessage(unknown) }
        for id in ids { try remove(id) }
    }

    /// Stamps the message after `composeMark(in:)` and enqueues it: enough for a store one process writes.
    public func enqueueComposed(_ message: Message) throws -> Message {
        var message = message
        message.timestamp = Message.composeStamp(now: message.timestamp, after: composeMark(in: message.conversationID))
        try enqueue(message)
        return message
    }

    /// A store no other process writes has nothing to report.
    public func refresh() throws -> OutboxForeignChanges { OutboxForeignChanges() }

    /// A store that does not track interrupted sends reports none.
    public var requeuedAtOpen: [MessageID] { [] }

    /// A pass over `all()`: enough for a store that holds few messages.
    public func pending(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message] {
        Array(
            all().filter { message in
                message.conversationID == conversation && cursor.map { message.cursor < $0 } ?? true
            }
            .suffix(max(0, limit)))
    }

    /// A pass over `all()`: enough for a store that holds few messages.
    public func count(of status: MessageStatus) -> Int { all().lazy.filter { $0.status == status }.count }

    /// A pass over `all()`: enough for a store that holds few messages.
    public var requestedCount: Int { all().lazy.filter(\.awaitsSendAll).count }

    /// A pass over `all()`: enough for a store that holds few messages.
    public func count(in conversation: ConversationID) -> Int {
        all().lazy.filter { $0.conversationID == conversation }.count
    }

    /// The newest pending message of the conversation: enough for a store that never outlives its messages.
    public func composeMark(in conversation: ConversationID) -> Date? {
        all().last { $0.conversationID == conversation }?.timestamp
    }
}
