import CourierDomain

/// What only this device knows of the list's rows, on top of each row as the sync holds it (docs/design.md §2.7), as
/// a value: the list holds one. The newest message composed here per conversation previews its row while the row has
/// nothing newer; the open chat's row shows nothing unread; a conversation deleted here stays off the list until a
/// message brings it back, with its row as it was. Tested alone (`LocalActivityTests`).
struct LocalActivity {
    /// The newest message composed here that the outbox announced, per conversation: its row's preview while the
    /// row has nothing newer (a pending message the backend does not have yet).
    private(set) var composed: [ConversationID: Message] = [:]
    /// Conversations the user deleted here: a page that still lists them (the backend not told yet) skips them.
    var deleted = Set<ConversationID>()
    /// The rows of the conversations deleted here, as they were: a message into one brings its row back at once.
    private var deletedRows: [ConversationID: Conversation] = [:]
    /// The conversation whose chat is open: its row shows nothing unread.
    var openConversation: ConversationID?

    /// `row` as the list shows it: previewing the message composed here when the row has nothing newer (with the
    /// activity that goes with it), and with nothing unread while its chat is open.
    func shown(_ row: Conversation) -> Conversation {
        var shown = row
        if let mine = composed[row.id],
            row.lastMessage.map({ $0.id != mine.id && Message.composeOrder($0, mine) }) ?? true
        {
            shown.lastMessage = mine
            shown.lastActivity = max(row.lastActivity, mine.timestamp)
        }
        if row.id == openConversation { shown.unreadCount = 0 }
        return shown
    }

    /// The outbox announced `message`, composed here: it becomes its conversation's composed message unless a later
    /// composed one is held. Returns whether it did.
    mutating func compose(_ message: Message) -> Bool {
        let id = message.conversationID
        if let held = composed[id], held.id != message.id, Message.composeOrder(message, held) { return false }
        composed[id] = message
        return true
    }

    /// A message of the outbox, `message`, came into a conversation deleted here: one that went to the backend, or
    /// someone else's, brings it back, as the backend does. Returns the row it had when deleted, to show again.
    mutating func revive(by message: Message, currentUser: UserID) -> Conversation? {
        let id = message.conversationID
        guard deleted.contains(id), !message.status.isPending || message.senderID != currentUser else { return nil }
        deleted.remove(id)
        return deletedRows.removeValue(forKey: id)
    }

    /// The composed message `id` was deleted: its conversation, when one previewed it, is previewed by
    /// `nextPending` of that conversation (what else waits to be sent there) instead. Returns that conversation.
    mutating func composedDeleted(_ id: MessageID, nextPending: (ConversationID) -> Message?) -> ConversationID? {
        guard let conversation = composed.first(where: { $0.value.id == id })?.key else { return nil }
        composed[conversation] = nextPending(conversation)
        return conversation
    }

    /// The conversation `id` was deleted here (it is in `deleted` already): its row as it was, `row`, is kept for a
    /// message that brings it back, and nothing composed previews it any more.
    mutating func forget(_ id: ConversationID, row: Conversation?) {
        deletedRows[id] = row
        composed[id] = nil
    }
}
