import CourierDomain

extension OfflineQueueViewModel {
    // MARK: - The edit sheet

    /// Edit on a row: opens the sheet ("Edit Message") with the message's text, Cancel and Save. Throws
    /// `InputError.unknownMessage` or `wrongStatus` (not queued or failed), or `InputError.outcomeUnknown` for a
    /// message whose last send had no answer (the backend may hold it: the row is not `isEditable`); nothing changes
    /// then.
    public func beginEdit(messageID: MessageID) throws {
        try requireWaiting(messageID)
        guard let row = store.state.rows.first(where: { $0.id == messageID }) else {
            throw InputError.unknownMessage(messageID)
        }
        guard row.isEditable else { throw InputError.outcomeUnknown(messageID) }
        let sheet = EditSheet(messageID: messageID, text: row.text, strings: strings)
        store.update { $0.editSheet = sheet }
    }

    /// The text in the sheet changed to `text`: Save is enabled while it is not blank. Throws `noAlertShowing`
    /// without a sheet.
    public func updateEditText(_ text: String) throws {
        guard let sheet = store.state.editSheet else { throw PresentationError.noAlertShowing }
        let next = EditSheet(messageID: sheet.messageID, text: text, strings: strings)
        store.update { $0.editSheet = next }
    }

    /// Save: the message takes the sheet's text and the sheet closes, in one state. Throws `noAlertShowing`, the
    /// outbox's error (`InputError.emptyText` for blank text, `textTooLong`) or `wrongStatus`; the sheet stays open
    /// then, with nothing changed.
    public func saveEdit() throws {
        guard let sheet = store.state.editSheet else { throw PresentationError.noAlertShowing }
        try requireWaiting(sheet.messageID)
        savingEdit = sheet.messageID
        defer { savingEdit = nil }
        // The outbox owns the text rule (docs/design.md §3); its `changed` event redraws the row and closes the sheet.
        try outbox.edit(sheet.messageID, text: sheet.text)
        if store.state.editSheet != nil { store.update { $0.editSheet = nil } }
    }

    /// Cancel: closes the sheet, nothing edited.
    public func cancelEdit() {
        store.update { $0.editSheet = nil }
    }

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

    /// Closes whatever sheet or confirmation is about `id`; whether one was.
    static func close(_ id: MessageID, in state: inout State) -> Bool {
        var closed = false
        if state.editSheet?.messageID == id {
            state.editSheet = nil
            closed = true
        }
        if state.deleteConfirmation?.messageID == id {
            state.deleteConfirmation = nil
            closed = true
        }
        return closed
    }
}
