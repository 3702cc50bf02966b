import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite struct OfflineQueueViewModelTests: OutboxScreenSuite {
    let screen = OutboxScreen(online: false)

    @Test func rowsShowPreviewTimeConversationAndBadgeUnderACountedTitle() {
        // Given three pending messages in two conversations, one long
        let long = String(repeating: "a", count: 150)
        let exact = String(repeating: "b", count: 100)
        let first = outbox.seed(long, in: "c1", ageSeconds: 5 * 60)
        let second = outbox.seed(exact, in: "c2", status: .failed, ageSeconds: 3 * 3_600)
        let third = outbox.seed("line one\nline two", in: "c1", status: .sending, ageSeconds: 10)

        // When the queue opens
        let model = makeModel()

        // Then it lists them in compose order, previews cut to 100 characters
        #expect(model.state.title == "Offline Queue (3)")
        #expect(model.state.emptyState == nil)
        #expect(
            model.state.rows == [
                OfflineQueueRow(
                    id: second.id, conversationID: "c2", conversationName: "Ben", text: exact, preview: exact,
                    timeText: "3h ago", composedAt: second.timestamp, status: .failed, badge: "Failed"),
                OfflineQueueRow(
                    id: first.id, conversationID: "c1", conversationName: "Ana", text: long,
                    preview: String(repeating: "a", count: 99) + "…", timeText: "5m ago", composedAt: first.timestamp,
                    status: .queued, badge: "Queued"),
                OfflineQueueRow(
                    id: third.id, conversationID: "c1", conversationName: "Ana", text: "line one\nline two",
                    preview: "line one line two", timeText: "Now", composedAt: third.timestamp, status: .sending,
                    badge: "Sending..."),
            ])
        #expect(model.state.rows[1].preview.count == 100)
    }

    @Test func anEmptyQueueSaysSo() {
        let model = makeModel()

        #expect(
            model.state
                == .init(
                    title: "Offline Queue (0)", rows: [],
                    emptyState: .init(
                        title: "No Queued Messages", message: "Messages you compose offline will appear here")
                ))
    }

    @Test func composingAndDeletingKeepTheTitleCountAndEndInTheEmptyState() throws {
        let model = makeModel()
        let recorder = StateRecorder(model)

        let message = try outbox.compose(text: "hello", in: "c1")
        try model.delete(messageID: message.id)

        #expect(recorder.states.map(\.title) == ["Offline Queue (0)", "Offline Queue (1)", "Offline Queue (0)"])
        #expect(recorder.states.map(\.rows.count) == [0, 1, 0])
        #expect(recorder.states.map { $0.emptyState != nil } == [true, false, true])
        #expect(outbox.deleteCalls == [message.id])
    }

    @Test func editChangesTheTextAndPreviewAndBlankTextChangesNothing() throws {
        let message = outbox.seed("draft")
        let model = makeModel()
        let recorder = StateRecorder(model)

        try model.edit(messageID: message.id, text: "final words")
        #expect(throws: InputError.emptyText) { try model.edit(messageID: message.id, text: " ") }
        #expect(throws: InputError.unknownMessage(MessageID("ghost"))) {
            try model.edit(messageID: MessageID("ghost"), text: "x")
        }

        #expect(recorder.states.count == 2)
        #expect(recorder.states.map { $0.rows.map(\.text) } == [["draft"], ["final words"]])
        #expect(model.state.rows[0].preview == "final words")
        #expect(outbox.editCalls == [message.id, message.id])
        #expect(outbox.pending.map(\.text) == ["final words"])
    }

    @Test func editAndDeleteLeaveTheRowsToTheOutboxsEvents() throws {
        // Given two queued messages, and an outbox that announces a change only after it is made
        let first = outbox.seed("draft")
        let second = outbox.seed("doomed")
        let model = makeModel()
        outbox.holdsEvents = true
        let recorder = StateRecorder(model)

        // When the user edits the first and deletes the second, and only then the outbox announces both
        try model.edit(messageID: first.id, text: "final words")
        try model.delete(messageID: second.id)
        let beforeTheEvents = recorder.states.count
        outbox.releaseHeldEvents()

        // Then the rows changed with the events alone, one state each
        #expect(beforeTheEvents == 1)
        #expect(
            recorder.states.map { $0.rows.map(\.text) }
                == [["draft", "doomed"], ["final words", "doomed"], ["final words"]])
        #expect(recorder.states.map(\.title) == ["Offline Queue (2)", "Offline Queue (2)", "Offline Queue (1)"])
        #expect(outbox.editCalls == [first.id])
        #expect(outbox.deleteCalls == [second.id])
    }

    @Test func sendNowSendsOneMessageWhichLeavesTheQueue() async throws {
        network.set(online: true)
        let message = outbox.seed("now")
        let other = outbox.seed("later")
        let model = makeModel()
        let recorder = StateRecorder(model)

        try model.sendNow(messageID: message.id)
        #expect(model.hasPendingWork)
        #expect(await clock.run(until: { !model.hasPendingWork }))

        #expect(outbox.sendCalls == [message.id])
        let badges = recorder.states.map { $0.rows.map(\.badge) }
        #expect(badges == [["Queued", "Queued"], ["Sending...", "Queued"], ["Queued"]])
        #expect(model.state.rows.map(\.id) == [other.id])
        #expect(model.state.title == "Offline Queue (1)")
    }

    @Test func actionsOnASendingMessageAreRefused() async throws {
        let message = outbox.seed("busy", status: .sending)
        let model = makeModel()
        let recorder = StateRecorder(model)

        let busy = PresentationError.wrongStatus(message.id, .sending)
        #expect(throws: busy) { try model.sendNow(messageID: message.id) }
        #expect(throws: busy) { try model.delete(messageID: message.id) }
        #expect(throws: PresentationError.wrongStatus(message.id, .sending)) {
            try model.edit(messageID: message.id, text: "x")
        }

        #expect(recorder.states.count == 1)
        #expect(!model.hasPendingWork)
    }

    @Test func sendAllEmptiesTheQueueInComposeOrder() async {
        network.set(online: true)
        for text in ["1", "2", "3"] { outbox.seed(text) }
        let model = makeModel()
        let recorder = StateRecorder(model)

        model.sendAll()
        #expect(await clock.run(until: { !model.hasPendingWork }))

        #expect(outbox.sendAllCalls == 1)
        #expect(outbox.delivered.map(\.text) == ["1", "2", "3"])
        #expect(
            recorder.states.map(\.title) == [
                "Offline Queue (3)", "Offline Queue (3)", "Offline Queue (2)", "Offline Queue (2)", "Offline Queue (1)",
                "Offline Queue (1)", "Offline Queue (0)",
            ])
        #expect(model.state.emptyState == .standard)
    }

    @Test func closeHidesTheScreenWithItsSheetAndKeepsEveryMessage() throws {
        // Given the queue shown with one message and its edit sheet open
        let message = outbox.seed("draft")
        let model = makeModel()
        #expect(!model.state.isPresented)
        model.present()
        try model.beginEdit(messageID: message.id)
        #expect(model.state.isPresented)
        #expect(model.state.closeLabel == "Close")

        // When Close is pressed
        model.close()

        // Then the screen and its sheet are gone, and the message waits as it did, unedited
        #expect(!model.state.isPresented)
        #expect(model.state.editSheet == nil)
        #expect(model.state.rows.map(\.text) == ["draft"])
        #expect(outbox.pending.map(\.text) == ["draft"])
    }

    @Test func aSendAllThatSendsEverythingClosesTheScreenAndOneThatCannotLeavesItOpen() async {
        // Given the queue shown with two messages, offline
        for text in ["1", "2"] { outbox.seed(text) }
        let model = makeModel()
        model.present()

        // When Send All is pressed offline, nothing goes and the screen stays
        model.sendAll()
        #expect(await clock.run(until: { !model.hasPendingWork }))
        #expect(model.state.isPresented)
        #expect(model.state.rows.count == 2)

        // And when it is pressed online, everything goes and the screen closes itself
        network.set(online: true)
        model.sendAll()
        #expect(await clock.run(until: { !model.hasPendingWork }))
        #expect(model.state.rows.isEmpty)
        #expect(!model.state.isPresented)
    }

    @Test func relativeTimesRefreshAsTheClockMoves() async {
        outbox.seed("waiting")
        let model = makeModel()
        let recorder = StateRecorder(model)

        await clock.advance(by: .seconds(59))
        await clock.advance(by: .seconds(1))
        await clock.advance(by: .seconds(60))

        #expect(recorder.states.map { $0.rows.map(\.timeText) } == [["Now"], ["1m ago"], ["2m ago"]])
    }

    @Test func inTheBackgroundTimesStopAndTheReturnRedrawsThemOnce() async throws {
        // Given a queued message listed
        outbox.seed("waiting")
        let model = makeModel()
        let recorder = StateRecorder(model)

        // When the app spends ten minutes in the background, then comes back, then a minute passes
        model.enterBackground()
        await clock.advance(by: .seconds(300))
        // A message composed meanwhile (another screen) joins the rows, without starting the timer again
        try outbox.compose(text: "meanwhile", in: "c1")
        await clock.advance(by: .seconds(300))
        let sleepersInBackground = clock.sleeperCount
        model.enterForeground()
        await clock.advance(by: .seconds(60))

        // Then nothing was redrawn or waited for in the background, the return said "10m ago" at once, and the
        // refresh went on from there
        #expect(sleepersInBackground == 0)
        #expect(
            recorder.states.map { $0.rows.map(\.timeText) }
                == [["Now"], ["Now", "Now"], ["10m ago", "5m ago"], ["11m ago", "6m ago"]])
    }

    @Test func tenThousandQueuedMessagesAreListed() throws {
        for index in 0..<10_000 {
            let conversation: ConversationID = index.isMultiple(of: 2) ? "c1" : "c2"
            outbox.seed("message \(index)", in: conversation, ageSeconds: Double(10_000 - index))
        }
        let model = makeModel()

        try model.delete(messageID: outbox.pending[5_000].id)

        #expect(model.state.title == "Offline Queue (9999)")
        #expect(model.state.rows.count == 9_999)
        #expect(model.state.rows.first?.conversationName == "Ana")
    }

    // MARK: - Helpers

    private func makeModel() -> OfflineQueueViewModel {
        let names: [ConversationID: String] = ["c1": "Ana", "c2": "Ben"]
        return OfflineQueueViewModel(outbox: outbox, clock: clock, conversationName: { names[$0] ?? $0.rawValue })
    }
}
