import CourierDomain
import Foundation

extension ConversationsListViewModel {
    // MARK: - Activity

    /// Applies a message to a row, once per message: its preview when it is newer, its activity, and (when
    /// `countsUnread`) its unread count when it is someone else's and its chat is not on screen. A later copy of the
    /// row's last message (a status change, an edit) replaces it.
    func apply(_ message: Message, to conversation: inout Conversation, countsUnread: Bool = true) {
        if message.senderID != currentUser || !message.status.isPending { noteDelivered(message, in: conversation.id) }
        if conversation.lastMessage?.id == message.id {
            seenMessages.insert(message.id)
            conversation.lastMessage = message
            return
        }
        guard seenMessages.insert(message.id).inserted else { return }
        if conversation.lastMessage.map({ Message.composeOrder($0, message) }) ?? true {
            conversation.lastMessage = message
        }
        conversation.lastActivity = max(conversation.lastActivity, message.timestamp)
        if countsUnread, message.senderID != currentUser, conversation.id != openConversation,
            !sync.isWatched(conversation.id)
        {
            conversation.unreadCount += 1
            unreadParts[conversation.id]?.since.append(message.cursor)
        }
    }

    /// Adds the rows of the page of the `load`-th page load, in the backend's order; a row already shown keeps its
    /// place. Activity that waited for a row is applied to it (preview and activity), but a message the page
    /// already counts is not counted unread twice: a message of someone else's heard before the page was asked
    /// for had reached the backend (the feed tells of stored messages only), and one heard while it was on its way
    /// is taken as counted when it is not newer than the page's own last message.
    func merge(_ page: [Conversation], load: Int) {
        let shown = Set(conversations.map(\.id))
        for var conversation in page where !shown.contains(conversation.id) && !deleted.contains(conversation.id) {
            track(conversation)
            let last = conversation.lastMessage
            let activity = conversation.lastActivity
            for (message, heardAfter) in pendingActivity.removeValue(forKey: conversation.id) ?? [] {
                let counted = heardAfter < load || last.map { !Message.composeOrder($0, message) } ?? false
                apply(message, to: &conversation, countsUnread: !counted)
            }
            if conversation.lastActivity == activity { conversations.append(conversation) } else { place(conversation) }
        }
    }

    /// Inserts a row whose activity just moved where the backend lists it, most recent activity first: above every
    /// row active before it, and — the newest event — above rows active at the same instant.
    func place(_ conversation: Conversation) {
        let index = conversations.firstIndex { $0.lastActivity <= conversation.lastActivity } ?? conversations.count
        conversations.insert(conversation, at: index)
    }

    /// A pending message was deleted: a row it previewed shows what it covered again — the newest of what the
    /// backend has and what else waits to be sent there — with the activity that goes with it.
    func messageDeleted(_ id: MessageID) {
        for (conversation, waiting) in pendingActivity where waiting.contains(where: { $0.message.id == id }) {
            pendingActivity[conversation] = waiting.filter { $0.message.id != id }
        }
        guard let index = conversations.firstIndex(where: { $0.lastMessage?.id == id }),
            let known = delivered[conversations[index].id]
        else { return }
        var conversation = conversations.remove(at: index)
        let waiting = outbox?.pending(in: conversation.id, before: nil, limit: 1).last
        if let waiting, known.message.map({ Message.composeOrder($0, waiting) }) ?? true {
            conversation.lastMessage = waiting
            conversation.lastActivity = max(known.activity, waiting.timestamp)
        } else {
            conversation.lastMessage = known.message
            conversation.lastActivity = known.activity
        }
        place(conversation)
        render()
    }

    /// Starts following a row as the backend gave it (a page's or a snapshot's): its last message, activity and
    /// unread count.
    private func track(_ conversation: Conversation) {
        delivered[conversation.id] = (conversation.lastMessage, conversation.lastActivity)
        unreadParts[conversation.id] = (conversation.unreadCount, conversation.lastMessage?.cursor, [])
    }

    /// The user read `id` up to `upTo` (on this device or another): the row's unread count loses what the marker
    /// covers — the page's count once it covers the page's last message, and each message counted since up to it —
    /// even when a later message of the user's own (which counts nothing) is the newest.
    private func readByMe(_ id: ConversationID, upTo: MessageCursor) {
        guard let index = conversations.firstIndex(where: { $0.id == id }), conversations[index].unreadCount > 0
        else { return }
        let left: Int
        if let parts = unreadParts[id] {
            let base = parts.through.map { $0 <= upTo } ?? true ? 0 : parts.base
            let since = parts.since.filter { $0 > upTo }
            unreadParts[id] = (base, base == 0 ? nil : parts.through, since)
            left = base + since.count
        } else {
            let covered = conversations[index].lastMessage.map { $0.cursor <= upTo } ?? true
            left = covered ? 0 : conversations[index].unreadCount
        }
        guard left != conversations[index].unreadCount else { return }
        conversations[index].unreadCount = left
        render()
    }

    /// Keeps a loaded row's backend-side last message and activity up to date with a message the backend has.
    private func noteDelivered(_ message: Message, in id: ConversationID) {
        guard let known = delivered[id] else { return }
        let newer = known.message.map { $0.id == message.id || Message.composeOrder($0, message) } ?? true
        delivered[id] = (newer ? message : known.message, max(known.activity, message.timestamp))
    }

    // MARK: - What arrives

    func syncUpdated(_ update: SyncUpdate) {
        switch update {
        case .messages(let messages):
            // One state for the update, however many rows it moves (docs/design.md §5).
            store.batch { for message in messages { messageActivity(message) } }
        case .readByMe(let id, let upTo):
            readByMe(id, upTo: upTo)
        case .conversation(let conversation):
            if let index = conversations.firstIndex(where: { $0.id == conversation.id }) {
                conversations[index].name = conversation.name
                conversations[index].participantIDs = conversation.participantIDs
                render()
            }
        case .reset(let snapshot):
            // The snapshot's first page takes the rows' place in one state; rows loaded past it stay below.
            let fresh = snapshot.conversations.conversations.filter { !deleted.contains($0.id) }.map(clearingRead)
            let ids = Set(fresh.map(\.id))
            conversations = fresh + conversations.filter { !ids.contains($0.id) }
            for conversation in fresh { track(conversation) }
            seenMessages = []
            if !hasLoadedFirstPage, let last = fresh.last {
                cursor = ConversationCursor(lastActivity: last.lastActivity, id: last.id)
                hasLoadedFirstPage = true
            }
            render { $0.hasMore = $0.hasMore || snapshot.conversations.hasMore }
        case .live(let live):
            // Back online and caught up: a list the cache answered for asks the backend again.
            guard live, showsCachedPage, !store.state.isLoading else { return }
            load()
        case .statuses:
            return
        }
    }

    /// `conversation` with its unread count cleared when a read marker this device made covers its newest message
    /// (the backend may not have it yet), or when its chat is on screen.
    func clearingRead(_ conversation: Conversation) -> Conversation {
        guard conversation.unreadCount > 0 else { return conversation }
        let covered =
            sync.readMarker(for: conversation.id).map { marker in
                conversation.lastMessage.map { $0.cursor <= marker } ?? true
            } ?? false
        guard covered || sync.isWatched(conversation.id) || conversation.id == openConversation else {
            return conversation
        }
        var cleared = conversation
        cleared.unreadCount = 0
        return cleared
    }
}
