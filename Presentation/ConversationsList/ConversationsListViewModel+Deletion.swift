import CourierDomain
import Foundation

extension ConversationsListViewModel {
    // MARK: - Deleting a conversation

    /// Delete on a row: shows the confirmation ("Delete Conversation", how many queued and failed messages go with
    /// it; Delete, Cancel). Throws `unknownConversation` for a conversation the list does not show, and
    /// `deletionUnavailable` when the list was made without a way to delete; nothing changes then.
    public func deleteConversation(_ id: ConversationID) throws {
        guard deleter != nil else { throw PresentationError.deletionUnavailable }
        guard conversations.contains(where: { $0.id == id }) else { throw PresentationError.unknownConversation(id) }
        let unsent = outbox?.pending(in: id, before: nil, limit: .max) ?? []
        let alert = DeleteAlert(
            conversationID: id, queued: unsent.filter { $0.status == .queued }.count,
            failed: unsent.filter { $0.status == .failed }.count, strings: strings)
        store.update { $0.alert = alert }
    }

    /// Deletes the conversation `alert` is about, as its Delete button says (`chooseAlertAction(_:)`): the row goes
    /// with its queued and failed messages, cached pages and unsent receipts, in one state.
    func deleteConfirmed(_ alert: DeleteAlert, by deleter: any ConversationDeleting) {
        let id = alert.conversationID
        // The row goes first, so the outbox's `deleted` events for its messages find no row to redraw: one state.
        let before = (conversations, local.deleted)
        conversations.removeAll { $0.id == id }
        local.deleted.insert(id)
        do {
            try deleter.deleteConversation(id)
        } catch {
            (conversations, local.deleted) = before
            store.update {
                $0.alert = nil
                $0.error = strings.conversationDeletionFailed
            }
            return
        }
        local.forget(id, row: rows.removeValue(forKey: id))
        render { $0.alert = nil }
    }
}
