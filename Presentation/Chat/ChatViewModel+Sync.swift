import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - What arrives from others

    /// What the feed brought, in one state however many rows it moves: arrivals, raised statuses, a reset's page.
    func syncUpdated(_ update: SyncUpdate) {
        store.batch { apply(update) }
    }

    private func apply(_ update: SyncUpdate) {
        switch update {
        case .messages(let messages):
            var arrived = false
            for message in messages where message.conversationID == conversationID {
                let before = timeline.message(message.id)
                if let before, before.status >= message.status { continue }
                upsert(message, previous: before)
                arrived = true
            }
            if arrived { markSeen() }
        case .statuses(let conversation, let status, let upTo):
            guard conversation == conversationID else { return }
            raiseStatuses(to: status, upTo: upTo)
        case .reset(let snapshot):
            guard let page = snapshot.chats[conversationID] else { return }
            // Merged into what is shown, never emptied first: the rows stay while the new page joins them.
            timeline.merge(page: page.messages)
            windowStart = max(lowestShowable, min(windowStart, timeline.messages.count - store.state.messages.count))
            render()
            markSeen()
        case .live(let live):
            if live { feedLive() }
        case .readByMe, .conversation, .rows:
            return
        }
    }

    /// The user sees the chat: everything up to the newest message of someone else is read (a receipt goes out).
    func markSeen() {
        guard started, let newest = timeline.messages.last(where: { $0.senderID != currentUser }) else { return }
        sync.markRead(conversationID, upTo: newest.cursor)
    }

    /// A receipt raised the user's messages up to `upTo` to `status`: their rows change in place, from the newest
    /// back, stopping at the first one already there (the markers cover everything before it).
    private func raiseStatuses(to status: MessageStatus, upTo: MessageCursor) {
        let kind: Receipt.Kind = status == .read ? .read : .delivered
        var index = timeline.messages.count - 1
        while index >= 0 {
            let message = timeline.messages[index]
            index -= 1
            guard message.senderID == currentUser, !message.status.isPending, message.cursor <= upTo else { continue }
            let raised = message.status.raised(by: kind)
            if raised == message.status { break }
            var changed = message
            changed.status = raised
            upsert(changed, previous: message)
        }
    }
}
