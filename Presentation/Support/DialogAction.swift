/// A button of an alert, an action sheet or a confirmation, by what it does — its label is the strings table's
/// (`CourierStrings.label(for:)`), so logic matches the action, never the words, and a translated table still works.
public enum DialogAction: Equatable, Sendable, CaseIterable {
    /// Try a failed message again.
    case retry
    /// Delete the message or conversation.
    case delete
    /// Close without acting — or, on a queued message's sheet, cancel the message for good.
    case cancel
    /// Say what a queued message waits for.
    case info
    /// Close the sheet.
    case dismiss
    /// Send the message now.
    case sendNow
    /// Close the alert.
    case ok
    /// Keep the edit.
    case save
}
