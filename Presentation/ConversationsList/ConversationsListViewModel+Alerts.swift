import CourierDomain

extension ConversationsListViewModel {
    // MARK: - Alerts

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
        deleteConfirmed(alert, by: deleter)
    }
}
