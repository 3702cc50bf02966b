import CourierData
import CourierDomain
import Foundation

// MARK: - The event feed, receipts and per-user state

extension InMemoryChatBackend {
    /// Appends `change` to each of `users`' feeds and tells the feed observers.
    func publish(_ change: FeedEvent.Change, to users: [UserID]) {
        for user in users { _ = feeds[user, default: UserFeed()].append(change, retention: feedRetention) }
        for user in users { feedObservers.notify(user) }
    }

    /// Calls `observer` with the user whose feed grew, after every event, until the token is released: how a held
    /// long poll learns that it can answer.
    public func observeFeeds(_ observer: @escaping @MainActor (UserID) -> Void) -> ObservationToken {
        feedObservers.add(observer)
    }

    /// The position of `user`'s newest event (0 before the first).
    public func feedEndPosition(for user: UserID) -> FeedPosition { FeedPosition(feeds[user]?.end ?? 0) }

    /// How many events `user`'s feed keeps now.
    public func keptEventCount(for user: UserID) -> Int { feeds[user]?.count ?? 0 }

    /// Up to `limit` (at most 1,000) of `user`'s events after `cursor`, or `.expired`. Answers at once: holding a
    /// long poll is the transport's part (`NetworkConditioner`, the HTTP server).
    func feedAnswer(for user: UserID, after cursor: FeedPosition, limit: Int) throws(DeliveryError) -> FeedAnswer {
        guard limit > 0 else { throw .validation(reason: "a batch holds at least one event") }
        // A token this backend never gives (not a number) is a cursor it cannot serve: the device starts over.
        guard let after = cursor.number,
            let batch = (feeds[user] ?? UserFeed()).events(after: after, limit: min(limit, 1_000))
        else {
            return .expired
        }
        return .batch(batch)
    }

    /// Forgets every event every feed keeps (the driver's `events trim`): a device whose cursor is behind must start
    /// over. Journaled, so a restart does not bring them back.
    public func trimFeeds() throws(DeliveryError) {
        try record([.feedsTrimmed])
        replay(.feedsTrimmed)
    }

    /// The newest message of `conversation` that `user` has marked `kind` (read: seen; delivered: received, or
    /// read, which implies it).
    public func marker(_ kind: Receipt.Kind, of user: UserID, in conversation: ConversationID) -> MessageID? {
        let own = markers[conversation]?[user] ?? [:]
        guard kind == .delivered else { return own[.read] }
        let delivered = own[.delivered]
        let read = own[.read]
        return markerPosition(read, in: conversation) > markerPosition(delivered, in: conversation) ? read : delivered
    }

    /// Moves `receipt.userID`'s marker forward to `receipt.upTo`, journaled, and tells every participant through
    /// their feeds; a marker at or past it already changes nothing. Throws `.notFound` for an unknown
    /// conversation and for one the user is not in, `.validation` when the message is not one of
    /// the conversation's, `.server(code: 500)` when the journal refuses.
    public func markReceipt(_ receipt: Receipt) throws(DeliveryError) {
        // Not one's conversation is answered as one that does not exist: a stranger learns nothing of its id.
        guard let conversation = storedConversation(receipt.conversationID),
            conversation.participantIDs.contains(receipt.userID)
        else { throw .notFound }
        guard let position = position(of: receipt.upTo.id, in: receipt.conversationID) else {
            throw .validation(reason: "the receipt names no message of this conversation")
        }
        guard moves(receipt, to: position) else { return }
        try record([.receiptMarked(receipt)])
        applyReceipt(receipt)
    }

    /// Applies a journaled receipt (also on replay): the marker moves, a read clears what it covers from the
    /// user's unread count, and the participants hear of it.
    func applyReceipt(_ receipt: Receipt) {
        let conversationID = receipt.conversationID
        guard let conversation = storedConversation(conversationID), let stored = message(receipt.upTo.id),
            let position = position(of: stored.id, in: conversationID), moves(receipt, to: position)
        else { return }
        markers[conversationID, default: [:]][receipt.userID, default: [:]][receipt.kind] = stored.id
        if receipt.kind == .read {
            let after = messages(in: conversationID).dropFirst(position + 1)
            unread[conversationID, default: [:]][receipt.userID] =
                after.lazy.filter {
                    $0.senderID != receipt.userID
                }.count
        }
        var published = receipt
        published.upTo = stored.cursor
        publish(.receipt(published), to: conversation.participantIDs)
    }

    private func moves(_ receipt: Receipt, to position: Int) -> Bool {
        let own = markers[receipt.conversationID]?[receipt.userID] ?? [:]
        let current = markerPosition(own[receipt.kind], in: receipt.conversationID)
        let read = markerPosition(own[.read], in: receipt.conversationID)
        return position > current && (receipt.kind == .read || position > read)
    }

    private func markerPosition(_ id: MessageID?, in conversation: ConversationID) -> Int {
        id.flatMap { position(of: $0, in: conversation) } ?? -1
    }

    /// `messages` (all of `conversation`) with the status their senders see: `read` once another participant's read
    /// marker covers it, `delivered` once another's delivered (or read) marker does, else `sent`.
    func withStatuses(_ messages: [Message], in conversation: ConversationID) -> [Message] {
        guard let byUser = markers[conversation], !byUser.isEmpty else { return messages }
        let marks = byUser.keys.sorted().map { user in
            let read = markerPosition(byUser[user]?[.read], in: conversation)
            return (user, read, max(read, markerPosition(byUser[user]?[.delivered], in: conversation)))
        }
        return messages.map { message in
            guard let position = position(of: message.id, in: conversation) else { return message }
            var status = MessageStatus.sent
            for (user, read, delivered) in marks where user != message.senderID {
                if read >= position {
                    status = .read
                    break
                }
                if delivered >= position { status = .delivered }
            }
            var shown = message
            shown.status = status
            return shown
        }
    }

    /// One message with the status its sender sees.
    func withStatus(_ message: Message) -> Message {
        withStatuses([message], in: message.conversationID)[0]
    }

    /// What a device that starts over needs, true at one feed position (see `FeedSnapshot`). Chats that are not
    /// `user`'s are left out.
    func snapshot(of user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        throws(DeliveryError) -> FeedSnapshot
    {
        let list = try conversationPage(of: user, after: nil, limit: conversationLimit)
        var pages: [ConversationID: MessagePage] = [:]
        for chat in chats where storedConversation(chat)?.participantIDs.contains(user) == true {
            pages[chat] = try page(in: chat, before: nil, limit: max(1, messageLimit))
        }
        return FeedSnapshot(position: feedEndPosition(for: user), conversations: list, chats: pages)
    }
}

// MARK: - EventFeed

extension InMemoryChatBackend {
    /// The position of `user`'s newest event, asked by `requester`: `.forbidden` for another user's feed,
    /// `.unauthorized` while sign-in is expired. Not counted in `requests`.
    public func feedEnd(for user: UserID, as requester: UserID) throws(DeliveryError) -> FeedPosition {
        try checkSignIn()
        guard user == requester else { throw .forbidden }
        return feedEndPosition(for: user)
    }

    /// `user`'s events after `cursor`, at once (`wait` is the transport's to honour), asked by `requester`
    /// (`.forbidden` for another user's feed). Not counted in `requests`.
    public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration, as requester: UserID)
        throws(DeliveryError) -> FeedAnswer
    {
        try checkSignIn()
        guard user == requester else { throw .forbidden }
        return try feedAnswer(for: user, after: cursor, limit: limit)
    }

    /// See `FeedSnapshot`, asked by `requester` (`.forbidden` for another user's). Not counted in `requests`.
    public func snapshot(
        for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int, as requester: UserID
    ) throws(DeliveryError) -> FeedSnapshot {
        try checkSignIn()
        guard user == requester else { throw .forbidden }
        return try snapshot(of: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit)
    }

    /// Moves the receipt's marker forward (see `markReceipt`), asked by `requester`: `.forbidden` for another
    /// user's marker. Not counted in `requests`.
    public func mark(_ receipt: Receipt, as requester: UserID) throws(DeliveryError) {
        try checkSignIn()
        guard receipt.userID == requester else { throw .forbidden }
        try markReceipt(receipt)
    }
}

/// The feed conformance is `signedInUser`'s, with the same rules.
extension InMemoryChatBackend: EventFeed {
    /// `feedEnd(for:as:)` as `signedInUser`.
    public func feedEnd(for user: UserID) throws(DeliveryError) -> FeedPosition {
        try feedEnd(for: user, as: signedInUser)
    }

    /// `events(for:after:limit:wait:as:)` as `signedInUser`.
    public func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        throws(DeliveryError) -> FeedAnswer
    {
        try events(for: user, after: cursor, limit: limit, wait: wait, as: signedInUser)
    }

    /// `snapshot(for:conversationLimit:chats:messageLimit:as:)` as `signedInUser`.
    public func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        throws(DeliveryError) -> FeedSnapshot
    {
        try snapshot(
            for: user, conversationLimit: conversationLimit, chats: chats, messageLimit: messageLimit, as: signedInUser)
    }

    /// `mark(_:as:)` as `signedInUser`.
    public func mark(_ receipt: Receipt) throws(DeliveryError) { try mark(receipt, as: signedInUser) }
}

// MARK: - Admin reads of the markers

extension InMemoryChatBackend {
    /// The conversations where some participant has a marker, in id order.
    public var markedConversations: [ConversationID] { markers.keys.sorted() }

    /// Every message of `conversation` in compose order, each with the status its sender sees — what a fresh
    /// fetch of its pages carries (empty for an unknown conversation).
    public func messagesWithStatuses(in conversation: ConversationID) -> [Message] {
        withStatuses(messages(in: conversation), in: conversation)
    }

    /// Each participant of `conversation` with the newest message they have read (nil: none yet); empty for an
    /// unknown conversation.
    public func reads(in conversation: ConversationID) -> [(user: UserID, messageID: MessageID?)] {
        guard let stored = storedConversation(conversation) else { return [] }
        return stored.participantIDs.map { ($0, marker(.read, of: $0, in: conversation)) }
    }
}
