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

    /// A button of the confirmation, by its label in any case — the strings table's words, so a translated table's
    /// work: Delete removes the row with its queued and failed messages, cached pages and unsent receipts, durably,
    /// and has the backend hide it for this user; Cancel closes it. One state either way. Throws `noAlertShowing` or
    /// `unknownAction`; nothing changes then.
    public func chooseAlertAction(_ label: String) throws {
        try chooseAlertAction(DialogPress(labelled: label, on: store.state.alert, strings: strings).action)
    }

    /// The confirmation's button that does `action` (see `chooseAlertAction(_:)` by label). Throws `noAlertShowing`,
    /// or `unknownAction` when it has no such button; nothing changes then.
    public func chooseAlertAction(_ action: DialogAction) throws {
        let alert = try DialogPress(action, on: store.state.alert, strings: strings).dialog
        guard action == .delete, let deleter else {
            store.update { $0.alert = nil }
            return
        }
        let id = alert.conversationID
        // The row goes first, so the outbox's `deleted` events for its messages find no row to redraw: one state.
        let before = (conversations, deleted)
        conversations.removeAll { $0.id == id }
        deleted.insert(id)
        do {
            try deleter.deleteConversation(id)
        } catch {
            (conversations, deleted) = before
            store.update {
                $0.alert = nil
                $0.error = strings.conversationDeletionFailed
            }
            return
        }
        deletedRows[id] = rows.removeValue(forKey: id)
        composed[id] = nil
        render { $0.alert = nil }
    }
}
