import CourierData
import CourierDomain
import Foundation

/// The simulated chat server: users, conversations and messages held in memory, every accepted write journaled.
///
/// A real product type — the `courier` driver talks to it (through a `NetworkConditioner`) as if it were the
/// server. It answers at once; latency and failures are the conditioner's job. It keeps the server-side
/// guarantees the client relies on:
/// - **Idempotent by message id**: a write whose id is already stored with the same content
///   (`Message.hasSameContent`) is ignored, answered with the stored message and counted in `duplicatesIgnored`;
///   the same id with other content is refused with `DeliveryError.conflict` and changes nothing.
/// - **Compose order**: each conversation keeps its messages in compose order, `Message.composeOrder` — timestamp
///   (the sender's compose stamp), then id, the one order of docs/design.md §2.3 — whatever order they arrive in: a
///   message held back takes its compose position when it arrives late (`ConversationTimeline`). Pages are found
///   through the cursor's message id, never by offset.
/// - **Durable answers**: an accepted write is appended to the `BackendJournal` before the request returns, and
///   `init` replays the journal, so the state survives a restart.
@MainActor
public final class InMemoryChatBackend {
    // MARK: - Counters and switches

    /// The user the demo's client signs in as by default (the seed data's unread counts are theirs).
    public let signedInUser: UserID
    /// How many events each user's feed keeps; a cursor older than that is answered `.expired`.
    public let feedRetention: Int
    /// Writes dropped because their message id was already stored with the same content.
    public private(set) var duplicatesIgnored = 0
    /// Requests for messages, pages and profile changes served through the repository API (answered, successfully or
    /// with an error; a batch is one). Name and presence lookups are not counted, as the driver's `server.requests`
    /// says; neither are the event feed and receipts.
    public private(set) var requests = 0
    /// When true, every request is answered with `DeliveryError.unauthorized` (the driver's `auth expire`).
    public var isSignInExpired = false

    // MARK: - State

    private let journal: any BackendJournal
    private var usersByID: [UserID: User] = [:]
    private var presenceByUser: [UserID: Presence] = [:]
    private var conversationsByID: [ConversationID: Conversation] = [:]
    private var activity = ConversationActivityIndex()
    private var timelines: [ConversationID: ConversationTimeline] = [:]
    /// The conversation each message id was first stored in: the admin view's `message(_:)`. A message id names a
    /// message within its conversation (docs/http-api.md, "Idempotent send"); writes look it up there.
    private var locations: [MessageID: ConversationID] = [:]
    /// Everyone each user shares a conversation with (participants never change).
    private var contactsByUser: [UserID: Set<UserID>] = [:]
    /// Each user's event feed.
    var feeds: [UserID: UserFeed] = [:]
    /// Each conversation's participants' markers, by kind: the newest message each has received or read.
    var markers: [ConversationID: [UserID: [Receipt.Kind: MessageID]]] = [:]
    /// Each conversation's unread count per participant.
    var unread: [ConversationID: [UserID: Int]] = [:]
    /// Who has hidden each conversation from their list (until a new message arrives there).
    var hiddenBy: [ConversationID: Set<UserID>] = [:]
    /// The messages their senders deleted, by conversation and id: never stored again (a late resend is answered as
    /// stored, and its sender's feed hears of the deletion again).
    var deletedMessages: [MessageKey: MessageDeletion] = [:]
    /// Told the user whose feed grew.
    let feedObservers = ObserverList<UserID>()

    // MARK: - Init

    /// Starts from `data`, then replays `journal` on top of it. Throws what `journal.load()` throws. Journaled
    /// events that no longer apply (a conversation missing from different seed data) are skipped.
    public init(seed data: DemoData, journal: any BackendJournal, feedRetention: Int = 100_000) throws {
        self.journal = journal
        self.feedRetention = max(1, feedRetention)
        signedInUser = data.signedInUser
        for user in data.users { usersByID[user.id] = user }
        for presence in data.presence { presenceByUser[presence.userID] = presence }
        for conversation in data.conversations where conversationsByID[conversation.id] == nil {
            conversationsByID[conversation.id] = conversation
            unread[conversation.id] = [data.signedInUser: conversation.unreadCount]
            timelines[conversation.id] = ConversationTimeline()
            activity.insert(.init(lastActivity: conversation.lastActivity, id: conversation.id))
            for user in conversation.participantIDs {
                contactsByUser[user, default: []].formUnion(conversation.participantIDs)
            }
        }
        // Seed data goes in in compose order, so that each message appends.
        for message in data.messages.sorted(by: Message.composeOrder)
        where timelines[message.conversationID].map({ $0.message(message.id) == nil }) ?? false {
            apply(normalized(message), countsAsUnread: false)
        }
        for event in try journal.load() { replay(event) }
    }

    // MARK: - Admin API (the driver's view of the server; not requests)

    /// Every message of `conversation`, in compose order (empty for an unknown conversation).
    public func messages(in conversation: ConversationID) -> [Message] {
        timelines[conversation]?.messages ?? []
    }

    /// How many messages `conversation` holds (0 for an unknown conversation).
    public func messageCount(in conversation: ConversationID) -> Int {
        timelines[conversation]?.count ?? 0
    }

    /// The conversation with this id, as `signedInUser` sees it.
    public func conversation(_ id: ConversationID) -> Conversation? { conversation(id, for: signedInUser) }

    /// The conversation with this id as `user` sees it: their unread count, the newest message's status.
    public func conversation(_ id: ConversationID, for user: UserID) -> Conversation? {
        guard var conversation = conversationsByID[id] else { return nil }
        conversation.unreadCount = unread[id]?[user] ?? 0
        if let last = conversation.lastMessage { conversation.lastMessage = withStatus(last) }
        return conversation
    }

    /// The user with this id.
    public func user(_ id: UserID) -> User? { usersByID[id] }

    /// Everyone `user` shares a conversation with (themselves included when they are in one).
    public func contacts(of user: UserID) -> Set<UserID> { contactsByUser[user] ?? [] }

    /// The stored message with this id, if any (the first stored, where conversations hold one id each): the admin
    /// view, for tests and tools.
    public func message(_ id: MessageID) -> Message? {
        guard let conversation = locations[id] else { return nil }
        return timelines[conversation]?.message(id)
    }

    /// The stored message with this id in `conversation`, if any: what a write with this id is compared with.
    public func message(_ id: MessageID, in conversation: ConversationID) -> Message? {
        timelines[conversation]?.message(id)
    }

    /// Where the message with this id stands in its conversation, if stored.
    func position(of id: MessageID, in conversation: ConversationID) -> Int? {
        timelines[conversation]?.position(of: id)
    }

    /// Every conversation id, most recent activity first.
    public var conversationIDs: [ConversationID] { activity.entries.map(\.id) }

    /// Injects a message from another user (or from anywhere) as if it had arrived at the server. Idempotent by id
    /// like every write; does not count as a request and ignores an expired sign-in. Throws `.validation` for empty
    /// text, `.notFound` for an unknown conversation, `.server(code: 500)` when the journal refuses the write.
    @discardableResult
    public func receive(_ message: Message) throws(DeliveryError) -> Message {
        try accept([message])[0].get()
    }

    /// Changes `user`'s display name. Throws `.validation` for an empty name, `.notFound` for an unknown user,
    /// `.server(code: 500)` when the journal refuses the write; a refused write changes nothing.
    func storeDisplayName(of user: UserID, to name: String) throws(DeliveryError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .validation(reason: "a display name cannot be empty") }
        guard usersByID[user] != nil else { throw .notFound }
        let event = BackendEvent.displayNameChanged(user: user, name: trimmed)
        try record([event])
        replay(event)
    }

    // MARK: - Writes

    /// Counts a request and refuses it while sign-in is expired.
    func beginRequest() throws(DeliveryError) {
        requests += 1
        try checkSignIn()
    }

    /// Refuses a request while sign-in is expired, without counting it.
    func checkSignIn() throws(DeliveryError) {
        if isSignInExpired { throw .unauthorized }
    }

    /// The conversation as stored (its unread count is not any user's).
    func storedConversation(_ id: ConversationID) -> Conversation? { conversationsByID[id] }

    /// Stores `messages` in order, one result each: duplicates answer with the stored message, an id stored with
    /// other content with `.conflict`, invalid ones with their error. Every new message is journaled (in one
    /// append) before anything changes in memory; when the journal refuses, the whole call throws
    /// `.server(code: 500)` and nothing changes. A stored message answers with the status its sender sees, as
    /// pages carry it: a held-back message filed before messages a marker covers is covered too.
    func accept(_ messages: [Message]) throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        var results: [Result<Message, DeliveryError>] = []
        var fresh: [Message] = []
        var freshIDs: [MessageKey: Message] = [:]
        for message in messages {
            let key = MessageKey(message)
            if let deletion = deletedMessages[key] {
                // Deleted by its sender after an earlier attempt stored it: answered as stored (the write happened),
                // never stored again, and the sender's devices hear of the deletion once more, after this answer.
                duplicatesIgnored += 1
                results.append(.success(normalized(message)))
                publish(.deletion(deletion), to: [message.senderID])
                continue
            }
            if let stored = self.message(message.id, in: message.conversationID) ?? freshIDs[key] {
                guard stored.hasSameContent(as: message) else {
                    results.append(.failure(.conflict))
                    continue
                }
                duplicatesIgnored += 1
                results.append(.success(stored))
                continue
            }
            if let problem = validationError(for: message) {
                results.append(.failure(problem))
                continue
            }
            let stored = normalized(message)
            fresh.append(stored)
            freshIDs[key] = stored
            results.append(.success(stored))
        }
        if !fresh.isEmpty {
            try record(fresh.map(BackendEvent.messageStored))
            for message in fresh { apply(message, countsAsUnread: true) }
        }
        return results.map { result in result.map(withStatus) }
    }

    private func validationError(for message: Message) -> DeliveryError? {
        // Checked, not trimmed: the client's outbox trims the text it stores and sends (docs/design.md §3).
        if message.media == nil && message.text.allSatisfy(\.isWhitespace) {
            return .validation(reason: "a message cannot be empty")
        }
        guard conversationsByID[message.conversationID] != nil else { return .notFound }
        return nil
    }

    func record(_ events: [BackendEvent]) throws(DeliveryError) {
        do {
            try journal.append(events)
        } catch {
            throw .server(code: 500)
        }
    }

    // MARK: - Applying state

    /// The message as the server keeps it: stored, so `sent`, with no client-side error attached.
    private func normalized(_ message: Message) -> Message {
        var stored = message
        stored.status = .sent
        stored.lastError = nil
        return stored
    }

    func replay(_ event: BackendEvent) {
        switch event {
        case .messageStored(let message):
            guard timelines[message.conversationID].map({ $0.message(message.id) == nil }) ?? false else { return }
            apply(message, countsAsUnread: true)
        case .displayNameChanged(let user, let name):
            usersByID[user]?.displayName = name
        case .receiptMarked(let receipt):
            applyReceipt(receipt)
        case .feedsTrimmed:
            for user in feeds.keys { feeds[user]?.trim() }
        case .conversationHidden(let conversation, let user):
            hiddenBy[conversation, default: []].insert(user)
        case .messageDeleted(let deletion):
            applyDeletion(deletion)
        }
    }

    /// Adds a message to its conversation and brings the conversation's preview (the last in compose order),
    /// activity and unread counts up to date; a new message (not seed history) goes into every participant's feed,
    /// with the status its sender sees.
    private func apply(_ message: Message, countsAsUnread: Bool) {
        guard var conversation = conversationsByID[message.conversationID] else { return }
        timelines[message.conversationID, default: ConversationTimeline()].add(message)
        if locations[message.id] == nil { locations[message.id] = message.conversationID }
        let before = ConversationActivityIndex.Entry(lastActivity: conversation.lastActivity, id: conversation.id)
        conversation.lastMessage = timelines[message.conversationID]?.last
        conversation.lastActivity = max(conversation.lastActivity, message.timestamp)
        conversationsByID[conversation.id] = conversation
        activity.move(before, to: .init(lastActivity: conversation.lastActivity, id: conversation.id))
        guard countsAsUnread else { return }
        // A new message brings a hidden conversation back to the list of everyone who hid it.
        hiddenBy[conversation.id] = nil
        // A message filed at or before a participant's read marker (held back, composed before a message they read)
        // is covered by that marker: it is not unread, as a read receipt on it would not move the marker either.
        let position = timelines[message.conversationID]?.position(of: message.id) ?? Int.max
        for user in conversation.participantIDs where user != message.senderID {
            let read = markers[conversation.id]?[user]?[.read].flatMap { self.position(of: $0, in: conversation.id) }
            guard (read ?? -1) < position else { continue }
            unread[conversation.id, default: [:]][user, default: 0] += 1
        }
        // With the status its sender sees, as pages carry it (a held-back message filed before covered ones is
        // covered too).
        publish(.message(withStatus(message)), to: conversation.participantIDs)
    }

    /// Takes a deleted message out of its conversation (also on replay): markers on it move to the message before,
    /// a participant who had not read it counts one fewer unread, the preview becomes the newest message left, and
    /// every participant's feed hears of it. The id is kept as deleted: it is never stored again.
    func applyDeletion(_ deletion: MessageDeletion) {
        let conversationID = deletion.conversationID
        guard var conversation = conversationsByID[conversationID],
            let position = timelines[conversationID]?.position(of: deletion.messageID)
        else { return }
        let previous = position > 0 ? timelines[conversationID]?.messages[position - 1].id : nil
        let sender = timelines[conversationID]?.message(deletion.messageID)?.senderID
        for user in conversation.participantIDs where user != sender {
            let read = markers[conversationID]?[user]?[.read].flatMap { self.position(of: $0, in: conversationID) }
            if (read ?? -1) < position, let count = unread[conversationID]?[user], count > 0 {
                unread[conversationID]?[user] = count - 1
            }
        }
        for (user, kinds) in markers[conversationID] ?? [:] {
            for (kind, id) in kinds where id == deletion.messageID {
                markers[conversationID]?[user]?[kind] = previous
            }
        }
        _ = timelines[conversationID]?.remove(deletion.messageID)
        if locations[deletion.messageID] == conversationID { locations[deletion.messageID] = nil }
        deletedMessages[MessageKey(conversation: conversationID, id: deletion.messageID)] = deletion
        conversation.lastMessage = timelines[conversationID]?.last
        conversationsByID[conversationID] = conversation
        publish(.deletion(deletion), to: conversation.participantIDs)
    }

    // MARK: - Reads for requests

    func page(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) throws(DeliveryError)
        -> MessagePage
    {
        guard limit > 0 else { throw .validation(reason: "a page holds at least one message") }
        guard let timeline = timelines[conversation] else { throw .notFound }
        guard var page = timeline.page(before: cursor, limit: limit) else {
            throw .validation(reason: "the page cursor names no message of this conversation")
        }
        page.messages = withStatuses(page.messages, in: conversation)
        return page
    }

    func conversationPage(of user: UserID, after cursor: ConversationCursor?, limit: Int) throws(DeliveryError)
        -> ConversationPage
    {
        guard limit > 0 else { throw .validation(reason: "a page holds at least one conversation") }
        var page: [Conversation] = []
        var index = activity.start(after: cursor)
        let entries = activity.entries
        while index < entries.count {
            if let stored = conversationsByID[entries[index].id], stored.participantIDs.contains(user),
                hiddenBy[stored.id]?.contains(user) != true, let conversation = conversation(stored.id, for: user)
            {
                if page.count == limit { return ConversationPage(conversations: page, hasMore: true) }
                page.append(conversation)
            }
            index += 1
        }
        return ConversationPage(conversations: page, hasMore: false)
    }

    func profiles(_ ids: [UserID]) -> [User] { ids.compactMap { usersByID[$0] } }

    /// `user`'s device connected (`online`) or disconnected at `date`: the presence others are told (last seen at
    /// `date` once offline). Throws `.notFound` for an unknown user. Presence is not journaled: a restart
    /// forgets it, as a server forgets who is connected.
    public func setPresence(of user: UserID, online: Bool, at date: Date) throws(DeliveryError) {
        guard usersByID[user] != nil else { throw .notFound }
        let seen = online ? date : (presenceByUser[user]?.isOnline == true ? date : presenceByUser[user]?.lastSeen)
        presenceByUser[user] = Presence(userID: user, isOnline: online, lastSeen: seen ?? date)
    }

    func presences(_ ids: [UserID]) -> [Presence] {
        ids.compactMap { id in
            guard usersByID[id] != nil else { return nil }
            return presenceByUser[id] ?? Presence(userID: id, isOnline: false)
        }
    }
}

/// A message's identity at the backend: its id within its conversation. Ids are the clients' (random UUIDs); one
/// used in a conversation a client is not in is another message, so a write never tells whether it exists there.
struct MessageKey: Hashable {
    var conversation: ConversationID
    var id: MessageID

    init(conversation: ConversationID, id: MessageID) { (self.conversation, self.id) = (conversation, id) }

    init(_ message: Message) { self.init(conversation: message.conversationID, id: message.id) }
}
