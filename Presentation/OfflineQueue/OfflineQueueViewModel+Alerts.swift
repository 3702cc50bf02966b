import CourierDomain

extension OfflineQueueViewModel {
    // MARK: - The delete confirmation

    /// Delete on a row: asks first ("Delete Message", Delete and Cancel). Throws `InputError.unknownMessage` or
    /// `wrongStatus`; nothing changes then.
    public func confirmDelete(messageID: MessageID) throws {
        try requireWaiting(messageID)
        let confirmation = DeleteConfirmation(messageID: messageID, strings: strings)
        store.update { $0.deleteConfirmation = confirmation }
    }

    /// Presses the confirmation's button labelled `label`, in any case — the strings table's words, so a
    /// translated table's work. Throws `noAlertShowing`, `unknownAction`, or what Delete throws.
    public func chooseAlertAction(_ label: String) throws {
        try chooseAlertAction(
            DialogPress(labelled: label, on: store.state.deleteConfirmation, strings: strings).action)
    }

    /// Presses the confirmation's button that does `action`: Delete removes the message for good and closes it,
    /// in one state; Cancel closes it. Throws `noAlertShowing`, `unknownAction`, or the outbox's error.
    public func chooseAlertAction(_ action: DialogAction) throws {
        let confirmation = try DialogPress(action, on: store.state.deleteConfirmation, strings: strings).dialog
        guard action == .delete else {
            store.update { $0.deleteConfirmation = nil }
            return
        }
        // The outbox's `deleted` event removes the row and closes the confirmation together.
        try delete(messageID: confirmation.messageID)
        if store.state.deleteConfirmation != nil { store.update { $0.deleteConfirmation = nil } }
    }
}
