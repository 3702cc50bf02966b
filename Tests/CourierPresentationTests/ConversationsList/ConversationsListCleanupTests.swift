import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture

@MainActor
@Suite struct ConversationsListCleanupTests {
    let clock = ManualClock()

    @Test func aReleasedListEndsItsObservationsAndTimers() async {
        // Given a list that is loaded, observed, and refreshing its timestamps
        let directory = FakeUserDirectory(Fixture.users(3))
        let repository = FakeConversationRepository(
            Fixture.conversations(3, newest: clock.now), clock: clock, latency: .zero)
        var model: ConversationsListViewModel? = ConversationsListViewModel(
            currentUser: Fixture.me, conversations: repository, users: directory, clock: clock)
        weak let released = model
        model?.loadMore()
        await clock.idle()
        var recorder: StateRecorder<ConversationsListViewModel>? = model.map { StateRecorder($0) }
        await clock.idle()
        #expect(clock.sleeperCount == 1)
        #expect(directory.hasObservers)

        // When the screen drops its last strong reference (the recorder only observes)
        model = nil
        await clock.idle()

        // Then the model is gone, its timer left the clock, and it no longer observes the directory
        #expect(released == nil)
        #expect(clock.sleeperCount == 0)
        #expect(!directory.hasObservers)

        // And advancing time or changing a profile emits nothing
        let heard = recorder?.states.count
        await clock.advance(by: .seconds(600))
        directory.change(User(id: "u1", displayName: "Renamed"))
        #expect(recorder?.states.count == heard)
        recorder = nil
    }

    @Test func aListReleasedInTheBackgroundLeavesNothingBehind() async {
        // Given a list that went to the background and came back
        let directory = FakeUserDirectory([])
        var model: ConversationsListViewModel? = ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository([], clock: clock, latency: .zero), users: directory,
            clock: clock)
        weak let released = model
        model?.enterBackground()
        model?.enterForeground()
        await clock.idle()

        // When it is released
        model = nil
        await clock.idle()

        // Then nothing of it remains
        #expect(released == nil)
        #expect(clock.sleeperCount == 0)
        #expect(!directory.hasObservers)
    }
}
