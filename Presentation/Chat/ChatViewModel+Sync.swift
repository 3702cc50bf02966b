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
            for var message in messages where message.conversationID == conversationID {
                let before = shown.timeline.message(message.id)
                if let before {
                    // Known: it changes when it went further in its life, or when the backend filed it elsewhere than
                    // it stands (a send answered before the backend said where: its echo moves it).
                    guard before.status < message.status || before.cursor != message.cursor else { continue }
                    message.status = max(before.status, message.status)
                }
                upsert(message, previous: before)
                arrived = true
            }
            if arrived { markSeen() }
        case .statuses(let conversation, _, _, let raised):
            guard conversation == conversationID else { return }
            show(raised)
        case .reset(let snapshot):
            guard let page = snapshot.chats[conversationID] else { return }
            // Merged into what is shown, never emptied first: the rows stay while the new page joins them.
            shown.timeline.merge(page: page.messages)
            shown.start = max(
                lowestShowable, min(shown.start, shown.timeline.messages.count - store.state.messages.count))
            render()
            markSeen()
        case .removed(let conversation, let ids):
            guard conversation == conversationID else { return }
            for id in ids { removeRow(id) }
        case .live(let live):
            if live { feedLive() }
        case .readByMe, .conversation, .rows:
            return
        }
    }

    /// The user sees the chat: everything up to the newest message of someone else is read (a receipt goes out).
    func markSeen() {
        guard started, let newest = shown.timeline.messages.last(where: { $0.senderID != currentUser }) else { return }
        sync.markRead(conversationID, upTo: newest.cursor)
    }

    /// The sync raised the statuses of the user's messages `raised` (as it wrote them): their rows change in place,
    /// never backwards, and a row still pending is not touched.
    private func show(_ raised: [Message]) {
        for message in raised {
            guard let held = shown.timeline.message(message.id), !held.status.isPending, held.status < message.status
            else { continue }
            var changed = held
            changed.status = message.status
            upsert(changed, previous: held)
        }
    }
}
