import CourierPresentation
import Testing

/// The one matching of a pressed button against the dialog a screen shows, which every view model's
/// `chooseAlertAction` goes through: by label in any case, in the table's words, or by action; refused when no dialog
/// shows or it has no such button.
@Suite struct DialogPressTests {
    /// A dialog with Delete and Cancel.
    struct Confirmation: DialogButtons, Equatable {
        var buttons: [DialogAction] = [.delete, .cancel]
    }

    @Test func aButtonIsFoundByItsLabelInAnyCaseOrByItsAction() throws {
        // Given a confirmation on screen
        let shown = Confirmation()

        // When its buttons are pressed by label, in any case, and by action
        let byLabel = try DialogPress(labelled: "dElEtE", on: shown, strings: .english)
        let byAction = try DialogPress(.cancel, on: shown, strings: .english)

        // Then each press names the dialog and what the button does
        #expect(byLabel.action == .delete && byLabel.dialog == shown)
        #expect(byAction.action == .cancel && byAction.dialog == shown)
    }

    @Test func aTranslatedTablesWordsAreTheLabels() throws {
        // Given a table in other words
        var german = CourierStrings.english
        german.delete = "Löschen"

        // When Delete is pressed by the translated label, and by the English one
        let press = try DialogPress(labelled: "löschen", on: Confirmation(), strings: german)

        // Then the translated one is Delete, and the English one is no button there
        #expect(press.action == .delete)
        #expect(throws: PresentationError.unknownAction("Delete", available: ["Löschen", "Cancel"])) {
            try DialogPress(labelled: "Delete", on: Confirmation(), strings: german)
        }
    }

    @Test func aPressWithNoDialogOrNoSuchButtonIsRefusedNamingTheButtonsThereAre() {
        // Given no dialog, and a confirmation without Retry
        let none: Confirmation? = nil

        // Then a press on nothing is noAlertShowing, and one on a missing button names the labels there are
        #expect(throws: PresentationError.noAlertShowing) { try DialogPress(.delete, on: none, strings: .english) }
        #expect(throws: PresentationError.noAlertShowing) {
            try DialogPress(labelled: "Delete", on: none, strings: .english)
        }
        #expect(throws: PresentationError.unknownAction("Retry", available: ["Delete", "Cancel"])) {
            try DialogPress(.retry, on: Confirmation(), strings: .english)
        }
        #expect(throws: PresentationError.unknownAction("Maybe", available: ["Delete", "Cancel"])) {
            try DialogPress(labelled: "Maybe", on: Confirmation(), strings: .english)
        }
    }
}
