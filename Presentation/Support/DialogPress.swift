/// A dialog a screen shows — an alert, an action sheet, a confirmation — by the buttons it offers.
public protocol DialogButtons {
    /// Its buttons, in order, by what they do.
    var buttons: [DialogAction] { get }
}

/// A press on a button of the dialog a screen shows: the one way every view model matches what was pressed — by its
/// label (the strings table's words, in any case, so a translated table works) or by its action — against the
/// buttons the dialog offers, refusing a press when no dialog shows or the dialog has no such button.
public struct DialogPress<Dialog: DialogButtons> {
    /// The dialog the button is on.
    public let dialog: Dialog
    /// What the button does.
    public let action: DialogAction

    /// A press on the button that does `action`, on `dialog` (nil when none shows). Throws
    /// `PresentationError.noAlertShowing` when none shows, `unknownAction` (naming the labels there are) when it has
    /// no such button.
    public init(_ action: DialogAction, on dialog: Dialog?, strings: CourierStrings) throws {
        guard let dialog else { throw PresentationError.noAlertShowing }
        guard dialog.buttons.contains(action) else {
            throw PresentationError.unknownAction(
                strings.label(for: action), available: dialog.buttons.map(strings.label(for:)))
        }
        self.dialog = dialog
        self.action = action
    }

    /// A press on the button labelled `label` (any case), on `dialog` (nil when none shows). Throws
    /// `PresentationError.noAlertShowing` when none shows, `unknownAction` (naming the labels there are) when no
    /// button has that label.
    public init(labelled label: String, on dialog: Dialog?, strings: CourierStrings) throws {
        guard let dialog else { throw PresentationError.noAlertShowing }
        guard let action = strings.action(labelled: label, among: dialog.buttons) else {
            throw PresentationError.unknownAction(label, available: dialog.buttons.map(strings.label(for:)))
        }
        self.dialog = dialog
        self.action = action
    }
}
