import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture

@MainActor
@Suite struct ConversationsListTimestampTests {
    let clock = ManualClock()

    private func loadedModel(_ conversations: [Conversation]) async -> ConversationsListViewModel {
        let model = ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository(
                conversations, clock: clock,
                latency: .zero),
            users: FakeUserDirectory(Fixture.users(3)), clock: clock)
        model.loadMore()
        await clock.idle()
        return model
    }

    private func conversation(_ id: ConversationID, activeAgo seconds: TimeInterval) -> Conversation {
        let at = clock.now.addingTimeInterval(-seconds)
        return Conversation(
            id: id, participantIDs: [Fixture.me, "u1"], lastMessage: Fixture.message("m-\(id)", in: id, at: at),
            lastActivity: at)
    }

    @Test func timestampsCountUpEverySixtySecondsInTheForeground() async {
        // Given a conversation active 30 s ago and one active two days ago (last year: it is Jan 1)
        let model = await loadedModel([conversation("c1", activeAgo: 30), conversation("c2", activeAgo: 2 * 86_400)])
        let recorder = StateRecorder(model)

        // When three minutes pass, one at a time (a single jump would coalesce the refreshes)
        for _ in 1...3 { await clock.advance(by: .seconds(60)) }

        // Then the recent row counts up once a minute, and the old one keeps its date
        #expect(
            recorder.states.map { $0.items.map(\.timestamp) } == [
                ["Now", "Dec 30"], ["1m ago", "Dec 30"], ["2m ago", "Dec 30"], ["3m ago", "Dec 30"],
            ])
    }

    @Test func aJumpOfTenYearsRefreshesOnceAtItsEndLikeADeviceWaking() async {
        // Given a row active just now, refreshed every minute
        let model = await loadedModel([conversation("c1", activeAgo: 0)])
        let recorder = StateRecorder(model)

        // When ten years pass in one jump
        await clock.advance(by: .seconds(3_650 * 86_400))

        // Then the row was redrawn once, at the end of the jump (not once per minute skipped: that would show every
        // "Nm ago" on the way), and the next refresh is one minute after it
        #expect(recorder.states.map { $0.items.map(\.timestamp) } == [["Now"], ["Jan 1"]])
        #expect(clock.nextDeadline == clock.now.addingTimeInterval(60))
    }

    @Test func noStateIsEmittedWhenNoTextChanged() async {
        // Given rows whose texts stay put for hours
        let model = await loadedModel([
            conversation("c1", activeAgo: 3 * 3_600 + 60), conversation("c2", activeAgo: 30 * 3_600),
        ])
        let recorder = StateRecorder(model)

        // When ten refreshes pass
        await clock.advance(by: .seconds(600))

        // Then nothing was emitted beyond the replayed state, though the timer keeps running
        #expect(recorder.states.map { $0.items.map(\.timestamp) } == [["3h ago", "Yesterday"]])
        #expect(clock.sleeperCount == 1)
    }

    @Test func theBackgroundPausesRefreshesAndTheForegroundCatchesUpAtOnce() async {
        // Given a row active just now
        let model = await loadedModel([conversation("c1", activeAgo: 0)])
        let recorder = StateRecorder(model)

        // When the app goes to the background for five minutes
        model.enterBackground()
        await clock.advance(by: .seconds(300))

        // Then nothing refreshes and no timer waits
        #expect(recorder.states.map { $0.items.map(\.timestamp) } == [["Now"]])
        #expect(clock.sleeperCount == 0)

        // When it returns, and another minute passes
        model.enterForeground()
        await clock.advance(by: .seconds(60))

        // Then the row caught up on return, then counted on
        #expect(recorder.states.map { $0.items.map(\.timestamp) } == [["Now"], ["5m ago"], ["6m ago"]])
        #expect(clock.sleeperCount == 1)
    }

    @Test func repeatedLifecycleEventsKeepOneTimer() async {
        // Given a loaded list
        let model = await loadedModel([conversation("c1", activeAgo: 0)])

        // When the app reports foreground twice, and background twice
        model.enterForeground()
        model.enterForeground()
        await clock.idle()
        #expect(clock.sleeperCount == 1)
        model.enterBackground()
        model.enterBackground()
        await clock.idle()

        // Then one timer ran, and none is left
        #expect(clock.sleeperCount == 0)
    }
}
