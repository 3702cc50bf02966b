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
