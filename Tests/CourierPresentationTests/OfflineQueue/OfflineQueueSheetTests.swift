import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// The Offline Queue's edit sheet and delete confirmation, whole state histories (story 2.9, task 7).
@MainActor
@Suite struct OfflineQueueSheetTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    @Test func editOpensTheSheetWithTheTextAndSaveIsDisabledWhileBlank() throws {
        // Given a queued message on the Offline Queue, and Edit opening the sheet
        let (message, model, recorder, row) = try editingDraft()

        // When the text is cleared, then typed again, then saved
        try model.updateEditText("  ")
        try model.updateEditText("final words")
        try model.saveEdit()

        // Then the sheet shows the documents' words, Save follows the text, and Save closes it with the new text
        func sheet(_ text: String) -> OfflineQueueViewModel.EditSheet {
            OfflineQueueViewModel.EditSheet(messageID: message.id, text: text)
        }
        let edited = OfflineQueueRow(
            id: row.id, conversationID: row.conversationID, conversationName: "Ana", text: "final words",
            preview: "final words", timeText: row.timeText, composedAt: row.composedAt, status: .queued,
            badge: "Queued")
        #expect(
            recorder.states == [
                state([row]), state([row], editSheet: sheet("draft")), state([row], editSheet: sheet("  ")),
                state([row], editSheet: sheet("final words")), state([edited]),
            ])
        #expect(recorder.states.compactMap(\.editSheet).map(\.canSave) == [true, false, true])
        #expect(sheet("draft").title == "Edit Message")
        #expect(sheet("draft").actions == ["Cancel", "Save"])
        #expect(outbox.pending.map(\.text) == ["final words"])
    }

    @Test func savingBlankTextIsRefusedAndCancelLeavesTheMessageAsItWas() throws {
        let (message, model, recorder, row) = try editingDraft()
        try model.updateEditText(" ")
        #expect(throws: InputError.emptyText) { try model.saveEdit() }
        model.cancelEdit()

        let blank = OfflineQueueViewModel.EditSheet(messageID: message.id, text: " ")
        #expect(
            recorder.states == [
                state([row]), state([row], editSheet: .init(messageID: message.id, text: "draft")),
                state([row], editSheet: blank), state([row]),
            ])
        #expect(outbox.pending.map(\.text) == ["draft"])
        #expect(throws: PresentationError.noAlertShowing) { try model.saveEdit() }
    }

    @Test func deleteAsksFirstAndDeleteRemovesTheMessageInOneState() throws {
        // Given two queued messages
        let first = outbox.seed("first")
        let second = outbox.seed("second")
        let model = makeModel()
        let recorder = StateRecorder(model)
        let rows = model.state.rows

        // When Delete on the first is cancelled, then asked again and confirmed by its label, in any case
        try model.confirmDelete(messageID: first.id)
        try model.chooseAlertAction("cancel")
        try model.confirmDelete(messageID: first.id)
        try model.chooseAlertAction("DELETE")

        // Then the confirmation shows, goes, shows again, and goes with the row
        let confirmation = OfflineQueueViewModel.DeleteConfirmation(messageID: first.id)
        #expect(confirmation.title == "Delete Message")
        #expect(confirmation.actions == ["Delete", "Cancel"])
        #expect(
            recorder.states == [
                state(rows), state(rows, deleteConfirmation: confirmation), state(rows),
                state(rows, deleteConfirmation: confirmation), state([rows[1]]),
            ])
        #expect(outbox.pending.map(\.id) == [second.id])
        #expect(throws: PresentationError.noAlertShowing) { try model.chooseAlertAction("Delete") }
    }

    @Test func theSheetAndConfirmationRefuseAMessageThatIsSending() {
        let message = outbox.seed("busy", status: .sending)
        let model = makeModel()
        let busy = PresentationError.wrongStatus(message.id, .sending)
        #expect(throws: busy) { try model.beginEdit(messageID: message.id) }
        #expect(throws: busy) { try model.confirmDelete(messageID: message.id) }
        #expect(model.state.editSheet == nil && model.state.deleteConfirmation == nil)
    }

    // MARK: - Helpers

    private func state(
        _ rows: [OfflineQueueRow], editSheet: OfflineQueueViewModel.EditSheet? = nil,
        deleteConfirmation: OfflineQueueViewModel.DeleteConfirmation? = nil
    ) -> OfflineQueueViewModel.State {
        OfflineQueueViewModel.State(
            title: "Offline Queue (\(rows.count))", rows: rows,
            emptyState: nil, editSheet: editSheet, deleteConfirmation: deleteConfirmation)
    }

    /// The queue holding one queued "draft", with Edit's sheet opened on it: the message, the screen, every state it
    /// emitted from before the sheet opened, and the draft's row.
    private func editingDraft() throws -> (
        message: Message, model: OfflineQueueViewModel, recorder: StateRecorder<OfflineQueueViewModel>,
        row: OfflineQueueRow
    ) {
        let message = outbox.seed("draft")
        let model = makeModel()
        let recorder = StateRecorder(model)
        let row = model.state.rows[0]
        try model.beginEdit(messageID: message.id)
        return (message, model, recorder, row)
    }

    private func makeModel() -> OfflineQueueViewModel {
        let names: [ConversationID: String] = ["c1": "Ana", "c2": "Ben"]
        return OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: { names[$0] ?? $0.rawValue })
    }
}

/// A queued message whose last send had no answer: the backend may hold it, so the queue says so and offers no Edit.
@MainActor
@Suite struct OfflineQueueUnknownOutcomeTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    @Test func anUnansweredSendIsUnconfirmedAndItsEditIsRefusedWithNothingChanged() throws {
        // Given one message whose send went unanswered and one that never left
        let unanswered = outbox.seed("version A", lastError: .unanswered)
        let untouched = outbox.seed("draft", ageSeconds: -1, lastError: .offline)
        let model = OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: { $0.rawValue })
        let rows = model.state.rows

        // Then the first row says it is not confirmed and is not editable; the other is an ordinary queued row
        #expect(rows.map(\.id) == [unanswered.id, untouched.id])
        #expect(rows.map(\.badge) == ["Not confirmed - will check with the server", "Queued"])
        #expect(rows.map(\.isEditable) == [false, true])

        // When Edit is pressed on it, then it is refused before a sheet opens, and the text stays
        #expect(throws: InputError.outcomeUnknown(unanswered.id)) { try model.beginEdit(messageID: unanswered.id) }
        #expect(model.state.editSheet == nil)
        #expect(outbox.pending.first?.text == "version A")
        #expect(outbox.editCalls.isEmpty)

        // And the other one still opens its sheet
        try model.beginEdit(messageID: untouched.id)
        #expect(model.state.editSheet?.messageID == untouched.id)
    }
}
