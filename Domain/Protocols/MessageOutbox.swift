#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The message lifecycle service: composes messages durably, sends them in order per conversation, keeps failed
/// ones, and offers the user's actions (Send All, Send Now, Retry, Edit, Delete). View models depend on this.
@MainActor
public protocol MessageOutbox: AnyObject {
    /// Every pending message (queued, sending, failed), in compose order.
    var pending: [Message] { get }
    /// The newest `limit` pending messages of `conversation` composed before `cursor` (the newest of all when nil),
    /// in compose order: a chat's page of its queue, at the cost of the page rather than of the queue.
    func pending(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message]
    /// How many pending messages have `status` (a banner's count), at the cost of one lookup for an outbox whose
    /// store keeps the counts.
    func pendingCount(of status: MessageStatus) -> Int
    /// How many pending messages (queued, sending, failed) `conversation` has: the part of the banner's count that
    /// is the open chat's, at the cost of one lookup for an outbox whose store keeps the counts.
    func pendingCount(in conversation: ConversationID) -> Int
    /// When queued messages go out on reconnect.
    var policy: SendPolicy { get set }
    /// Whether sending waits for sign-in to be renewed.
    var isPausedForSignIn: Bool { get }
    /// Whether any send is in flight or scheduled.
    var isBusy: Bool { get }
    /// Whether a Send All waits for messages that could not go yet (`Message.sendRequested`): they go at the first
    /// chance, whatever the policy, and no reminder asks about them.
    var sendAllRequested: Bool { get }
    /// Calls `observer` with every change, until the token is released.
    func observe(_ observer: @escaping @MainActor (OutboxEvent) -> Void) -> ObservationToken
    /// Composes a message: durable and announced to observers (`changed`) before this returns, then sent at once
    /// when online (`sending`) or kept `queued`. Trims the text and throws `InputError` when what is left is empty or
    /// oversized (docs/design.md §3), and `StoreError` when it cannot be stored.
    @discardableResult
    func compose(text: String, in conversation: ConversationID) throws -> Message
    /// Composes a message carrying an image uploaded elsewhere (its URL and thumbnail URL), with `text` as its
    /// caption, exactly as `compose(text:in:)` composes text: durable, announced, then sent or kept `queued`. The
    /// caption is trimmed and may be empty when `media` is given; `InputError.invalidImage` for a blank URL.
    @discardableResult
    func compose(text: String, media: MediaAttachment?, in conversation: ConversationID) throws -> Message
    /// Sends every queued and failed message, per conversation in compose order; returns when all are done. The
    /// request is durable: what cannot go now (offline, the backend unreachable, sign-in expired) stays requested
    /// and goes at the first chance, across relaunches.
    func sendAll() async
    /// Sends one queued or failed message (Send Now, Retry); returns when it is done. Throws
    /// `InputError.unknownMessage` when there is no such pending message.
    func send(_ id: MessageID) async throws
    /// Changes the text of a queued or failed message (durable). Throws `InputError.outcomeUnknown` for a message
    /// whose last send ended with no answer (`Message.outcomeUnknown`): the backend may hold it already.
    @discardableResult
    func edit(_ id: MessageID, text: String) throws -> Message
    /// Deletes a queued or failed message (durable).
    func delete(_ id: MessageID) throws
    /// Deletes every queued and failed message of `conversation` (durable), announcing each as `deleted`, and returns
    /// their ids in compose order: a conversation deleted from the list takes its unsent messages with it. A
    /// message already `sending` is on its way and stays.
    @discardableResult
    func discardPending(in conversation: ConversationID) throws -> [MessageID]
    /// Sign-in was renewed: resume sending.
    func signInRenewed()
    /// The backend's event feed echoed `message`, one of this device's: a pending copy is delivered now (`sent`),
    /// whether the send's own answer comes before, after or never. Returns whether it was pending.
    @discardableResult
    func confirmStored(_ message: Message) -> Bool
}

extension MessageOutbox {
    /// Whether any pending message not failed is `sendRequested` (reads every pending message: an outbox that keeps
    /// the answer says it at once).
    public var sendAllRequested: Bool { pending.contains(where: \.awaitsSendAll) }

    /// An outbox that sends text alone composes text, and refuses an image with a typed error.
    @discardableResult
    public func compose(text: String, media: MediaAttachment?, in conversation: ConversationID) throws -> Message {
        guard media == nil else { throw InputError.invalidImage("this outbox sends text alone") }
        return try compose(text: text, in: conversation)
    }

    /// An outbox that cannot confirm by echo leaves the send's own answer to do it.
    @discardableResult
    public func confirmStored(_ message: Message) -> Bool { false }

    /// One `delete` per message: enough for an outbox that holds few messages.
    @discardableResult
    public func discardPending(in conversation: ConversationID) throws -> [MessageID] {
        let doomed = pending.filter {
            $0.conversationID == conversation && ($0.status == .queued || $0.status == .failed)
        }.map(\.id)
        for id in doomed { try delete(id) }
        return doomed
    }

    /// A pass over `pending`: enough for an outbox that holds few messages.
    public func pendingCount(of status: MessageStatus) -> Int { pending.lazy.filter { $0.status == status }.count }

    /// A pass over `pending`: enough for an outbox that holds few messages.
    public func pendingCount(in conversation: ConversationID) -> Int {
        pending.lazy.filter { $0.conversationID == conversation }.count
    }

    /// A pass over `pending`: enough for an outbox that holds few messages.
    public func pending(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) -> [Message] {
        Array(
            pending.filter { message in
                message.conversationID == conversation && cursor.map { message.cursor < $0 } ?? true
            }
            .suffix(max(0, limit)))
    }
}
