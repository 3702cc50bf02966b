import CourierDomain
import Foundation
import Testing

@testable import CourierPresentation

/// What the chat's rows were last drawn from, alone: when the rows drawn still stand, when a row may be drawn alone,
/// and when a row's time text wants the refresh sooner.
@Suite struct DrawnRowsTests {
    private let noon = Date(timeIntervalSinceReferenceDate: 43_200)

    private func window() -> ChatWindow {
        var window = ChatWindow()
        window.timeline.merge(page: (1...3).map { message("m\($0)", at: Double($0)) })
        return window
    }

    private func message(_ id: String, at seconds: Double) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: "ana", text: id,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds), status: .sent)
    }

    @Test func nothingIsDrawnAtFirst() {
        let drawn = DrawnRows()

        #expect(!drawn.stillShows(window(), at: noon))
        #expect(!drawn.isCurrent(at: noon))
        #expect(drawn.nextChange == nil)
    }

    @Test func theRowsDrawnStandWhileTheClockTheTimelineAndTheStartHold() {
        // Given rows drawn at noon, the first time text changing a minute later
        var window = window()
        var drawn = DrawnRows()
        drawn.drew(window, at: noon, nextChange: noon.addingTimeInterval(60))

        // Then they stand at noon, and a row may be drawn alone
        #expect(drawn.stillShows(window, at: noon))
        #expect(drawn.isCurrent(at: noon))
        #expect(drawn.nextChange == noon.addingTimeInterval(60))

        // When the clock moves, nothing stands: every time text may read differently
        #expect(!drawn.stillShows(window, at: noon.addingTimeInterval(1)))
        #expect(!drawn.isCurrent(at: noon.addingTimeInterval(1)))

        // When the window's start moves, or the timeline changes, the rows drawn are not the window's
        var moved = window
        moved.start = 1
        #expect(!drawn.stillShows(moved, at: noon))
        window.timeline.merge(page: [message("m4", at: 4)])
        #expect(!drawn.stillShows(window, at: noon))
        #expect(drawn.isCurrent(at: noon))
    }

    @Test func aRowWantsTheRefreshSoonerOnlyWhenItsTextChangesBeforeTheDeadline() {
        var drawn = DrawnRows()
        let change = noon.addingTimeInterval(60)

        // With no refresh scheduled, any change wants one
        #expect(drawn.needsRefresh(before: change))

        // With one scheduled at the change, a later change waits for it and an earlier one does not
        drawn.refreshDeadline = change
        #expect(!drawn.needsRefresh(before: change))
        #expect(!drawn.needsRefresh(before: change.addingTimeInterval(1)))
        #expect(drawn.needsRefresh(before: change.addingTimeInterval(-1)))
    }
}
