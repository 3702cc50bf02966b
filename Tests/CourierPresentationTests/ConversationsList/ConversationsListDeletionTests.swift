import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture
private typealias State = ConversationsListViewModel.State
private typealias Alert = ConversationsListViewModel.DeleteAlert

/// Deleting a conversation from the list: a confirmation that says what goes with it, then one state without the row.
@MainActor
@Suite struct ConversationsListDeletionTests {
    let clock = ManualClock()
    let network = ManualConnectivity(online: false)
    let outbox: FakeMessageOutbox
    private let deleter: FakeConversationDeleting

    init() {
        outbox = FakeMessageOutbox(clock: clock, connectivity: network)
        deleter = FakeConversationDeleting(outbox: outbox)
    }

    private func loadedList(deleting: Bool = true) async -> ConversationsListViewModel {
        let now = clock.now
        let conversations = [
            Conversation(
                id: "c1", participantIDs: ["me", "ana"],
                lastMessage: Fixture.message("m1", in: "c1", text: "Ana's", at: now.addingTimeInterval(-60)),
                lastActivity: now.addingTimeInterval(-60)),
            Conversation(
                id: "c2", participantIDs: ["me", "ben"],
                lastMessage: Fixture.message(
                    "m2", in: "c2", from: "ben", text: "Ben's", at: now.addingTimeInterval(-300)),
                lastActivity: now.addingTimeInterval(-300)),
        ]
        let model = ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository(conversations, clock: clock, latency: .zero),
            users: FakeUserDirectory(
                [User(id: "ana", displayName: "Ana"), User(id: "ben", displayName: "Ben")]),
            clock: clock, outbox: outbox, deleter: deleting ? deleter : nil)
        model.load()
        await clock.idle()
        return model
    }

    @Test func deleteAsksFirstSayingWhatGoesThenRemovesTheRowAndItsUnsentMessagesInOneState() async throws {
        // Given the list, and in Ben's conversation two queued messages and a failed one, one queued in Ana's
        let model = await loadedList()
        outbox.seed("one", in: "c2")
        outbox.seed("two", in: "c2")
        outbox.seed("bad", in: "c2", status: .failed)
        outbox.seed("keep", in: "c1")
        let recorder = StateRecorder(model)
        let rows = model.state.items

        // When the user deletes Ben's conversation and confirms
        try model.deleteConversation("c2")
        try model.chooseAlertAction("delete")

        // Then the confirmation said what goes with it, and Delete took the row away in one state
        let alert = Alert(conversationID: "c2", queued: 2, failed: 1)
        #expect(alert.title == "Delete Conversation")
        #expect(
            alert.message
                == "This conversation will be removed from your list, and its 2 queued messages and 1 failed message "
                + "will be discarded.")
        #expect(alert.actions == ["Delete", "Cancel"])
        #expect(
            recorder.states == [
                State(items: rows),
                State(items: rows, alert: alert),
                State(items: rows.filter { $0.id != "c2" }),
            ])
        // And Ben's unsent messages are gone, Ana's stays
        #expect(deleter.deleted == ["c2"])
        #expect(outbox.pending.map(\.text) == ["keep"])
    }

    @Test func cancelClosesTheConfirmationAndKeepsEverything() async throws {
        let model = await loadedList()
        outbox.seed("one", in: "c2")
        let recorder = StateRecorder(model)
        let rows = model.state.items

        try model.deleteConversation("c1")
        try model.chooseAlertAction("Cancel")

        #expect(
            recorder.states == [
                State(items: rows),
                State(items: rows, alert: Alert(conversationID: "c1", queued: 0, failed: 0)),
                State(items: rows),
            ])
        #expect(
            Alert(conversationID: "c1", queued: 0, failed: 0).message
                == "This conversation will be removed from your list.")
        #expect(deleter.deleted.isEmpty && outbox.pending.count == 1)
    }

    @Test func aDeletedConversationStaysGoneFromAReloadThatStillListsIt() async throws {
        // Given Ben's conversation deleted (the backend not told yet: the fake repository still lists it)
        let model = await loadedList()
        try model.deleteConversation("c2")
        try model.chooseAlertAction("Delete")

        // When the list reloads
        model.load()
        await clock.idle()

        // Then the row does not come back
        #expect(model.state.items.map(\.id) == ["c1"])
    }

    @Test func myMessageIntoADeletedConversationBringsItsRowBackAtOnceOnTopWithIt() async throws {
        // Given Ben's conversation deleted here
        let model = await loadedList()
        try model.deleteConversation("c2")
        try model.chooseAlertAction("Delete")
        #expect(model.state.items.map(\.id) == ["c1"])

        // When I send into it from its chat and the backend stores it (the backend shows the conversation again)
        model.messageActivity(Fixture.message("m9", in: "c2", from: Fixture.me, text: "I'm back", at: clock.now))

        // Then its row is back at once, on top, previewing my message — no reload needed
        #expect(model.state.items.map(\.id) == ["c2", "c1"])
        #expect(model.state.items.first?.preview == "I'm back")
    }

    @Test func badInputAndARefusedDeletionChangeNothingTheUserCannotSee() async throws {
        let model = await loadedList()
        let rows = model.state.items
        let recorder = StateRecorder(model)

        #expect(throws: PresentationError.unknownConversation("c9")) { try model.deleteConversation("c9") }
        #expect(throws: PresentationError.noAlertShowing) { try model.chooseAlertAction("Delete") }
        try model.deleteConversation("c2")
        #expect(throws: PresentationError.unknownAction("Keep", available: ["Delete", "Cancel"])) {
            try model.chooseAlertAction("Keep")
        }
        deleter.refusal = .io("disk full")
        try model.chooseAlertAction("Delete")

        #expect(
            recorder.states == [
                State(items: rows),
                State(items: rows, alert: Alert(conversationID: "c2", queued: 0, failed: 0)),
                State(items: rows, error: "Couldn't delete the conversation. Please try again."),
            ])
        let withoutDeleter = await loadedList(deleting: false)
        #expect(throws: PresentationError.deletionUnavailable) { try withoutDeleter.deleteConversation("c1") }
    }
}
