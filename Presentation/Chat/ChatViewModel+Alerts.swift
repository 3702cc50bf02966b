import CourierDomain

extension ChatViewModel {
    // MARK: - Alerts and sheets

    /// A tap on a message: a failed one shows the alert with Retry, Delete and Cancel, a queued one the action sheet
    /// with Cancel, Info and Dismiss — and, online, Send Now first, with a text that says what it waits for (the
    /// user under the manual policy, a moment under the automatic one). Throws `InputError.unknownMessage` or
    /// `wrongStatus` (neither); nothing changes then.
    public func tapMessage(messageID: MessageID) throws {
        guard let message = knownMessage(messageID) else { throw InputError.unknownMessage(messageID) }
        switch message.status {
        case .failed: store.update { $0.alert = MessageAlert(messageID: messageID, strings: strings) }
        case .queued:
            let alert = MessageAlert(messageID: messageID, kind: .queuedActions, wait: queuedWait, strings: strings)
            store.update { $0.alert = alert }
        default: throw PresentationError.wrongStatus(messageID, message.status)
        }
    }

    /// Closes the alert or action sheet without acting (Cancel on the failed-message alert, Dismiss, OK).
    public func dismissAlert() {
        store.update { $0.alert = nil }
    }

    /// Presses the open alert's button labelled `label` (case-insensitive). Failed alert: Retry, Delete, Cancel
    /// (closes). Queued action sheet: Cancel (deletes the message from queue and chat for good), Info (the alert
    /// saying what it waits for), Send Now (online: sends it, one attempt), Dismiss (closes). Info alert: Send Now, OK
    /// (closes). The labels are the strings table's, so a translated table's words work. Throws `noAlertShowing`,
    /// `unknownAction`, or what the action throws; nothing changes then.
    public func chooseAlertAction(_ label: String) throws {
        try chooseAlertAction(DialogPress(labelled: label, on: store.state.alert, strings: strings).action)
    }

    /// Presses the open alert's button that does `action` (see `chooseAlertAction(_:)` by label). Throws
    /// `noAlertShowing`, `unknownAction` when the alert has no such button, or what the action throws.
    public func chooseAlertAction(_ action: DialogAction) throws {
        let alert = try DialogPress(action, on: store.state.alert, strings: strings).dialog
        switch (alert.kind, action) {
        case (.failed, .retry): try retry(messageID: alert.messageID)
        case (.failed, .delete): try delete(messageID: alert.messageID)
        case (.queuedActions, .cancel): try cancelQueued(alert.messageID)
        case (.queuedActions, .info):
            let info = MessageAlert(messageID: alert.messageID, kind: .queuedInfo, wait: queuedWait, strings: strings)
            store.update { $0.alert = info }
        case (.queuedActions, .sendNow), (.queuedInfo, .sendNow):
            dismissAlert()
            tasks.send(alert.messageID, through: outbox, logger: logger, as: "send now")
        default: dismissAlert()
        }
    }

    private func cancelQueued(_ id: MessageID) throws {
        guard let message = knownMessage(id) else { throw InputError.unknownMessage(id) }
        guard message.status == .queued else { throw PresentationError.wrongStatus(id, message.status) }
        // The outbox's `deleted` event takes the row and the sheet away: one path per change.
        try outbox.delete(id)
    }
}
