import CourierDomain
import Foundation

extension ConversationsListViewModel {
    // MARK: - Timestamps

    /// Every 60 s of clock time in the foreground the relative times are read again. Coalescing: after a long jump
    /// of time the list refreshes once, not once per minute skipped.
    func scheduleRefresh() {
        refreshTimer.schedule(after: Self.refreshInterval, coalescing: true) { [weak self] in
            self?.render()
            self?.scheduleRefresh()
        }
    }

    // MARK: - Rendering

    /// Rebuilds the rows (relative times read now) and applies `change`; emits only when something differs.
    func render(_ change: (inout State) -> Void = { _ in }) {
        let now = clock.now
        let items = conversations.map { item(for: $0, now: now) }
        store.update {
            $0.items = items
            change(&$0)
        }
    }

    private func item(for conversation: Conversation, now: Date) -> ConversationsListItem {
        ConversationsListItem(
            id: conversation.id, title: title(of: conversation),
            preview: ConversationsListItem.previewText(of: conversation.lastMessage, photo: strings.photoPreview),
            timestamp: formatter.string(for: conversation.lastActivity, relativeTo: now),
            unreadCount: conversation.unreadCount, previewImageURL: conversation.lastMessage?.media?.previewURL)
    }

    private func title(of conversation: Conversation) -> String {
        ConversationsListItem.title(of: conversation, currentUser: currentUser) { names[$0] }
    }
}
