import CourierDomain
import Foundation
import Testing

@testable import CourierPresentation

/// What a chat holds and which part is on screen, alone: the rows' start stays on the same first row whatever comes or
/// goes above it.
@Suite struct ChatWindowTests {
    private func message(_ id: String, at seconds: Double) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: "ana", text: id,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: .sent)
    }

    /// A window over m10…m50 (ten seconds apart) whose rows start at m30.
    private func window() -> ChatWindow {
        var window = ChatWindow()
        window.timeline.merge(page: (1...5).map { message("m\($0 * 10)", at: Double($0 * 10)) })
        window.start = 2
        return window
    }

    @Test func aNewMessageBelowTheTopIsARowAndOneAboveMovesTheStartDown() {
        var window = window()

        // When one arrives at the bottom, and one is filed above the rows
        let newest = window.place(message("m60", at: 60))
        let above = window.place(message("m15", at: 15))

        // Then the first is the rows' fourth, new; the second is above, and the rows still start at m30
        #expect(newest == .row(3, inserted: true))
        #expect(above == .above)
        #expect(window.rows.map(\.id) == ["m30", "m40", "m50", "m60"])
    }

    @Test func aChangedMessageAmongTheRowsKeepsItsRow() {
        var window = window()
        var changed = message("m40", at: 40)
        changed.status = .read

        #expect(window.place(changed) == .row(1, inserted: false))
        #expect(window.rows.map(\.status) == [.sent, .read, .sent])
    }

    @Test func aNewMessageAtTheTopJoinsTheRowsOnlyWhenTheyStartAtTheTimelinesTop() {
        // Given rows that start below the top: one filed right at their top stays above
        var below = window()
        #expect(below.place(message("m25", at: 25)) == .above)
        #expect(below.rows.first?.id == "m30")

        // Given rows that start at the top: one filed there joins them
        var top = window()
        top.start = 0
        #expect(top.place(message("m5", at: 5)) == .row(0, inserted: true))
        #expect(top.rows.first?.id == "m5")
    }

    @Test func removingAboveTheRowsMovesTheStartUpAndAnUnknownIdChangesNothing() {
        var window = window()

        #expect(window.remove("m10") == 0)
        #expect(window.remove("m40") == 2)
        #expect(window.remove("unknown") == nil)
        #expect(window.rows.map(\.id) == ["m30", "m50"])
        #expect(window.start == 1)
    }
}
