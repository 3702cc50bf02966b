import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

/// Cache first: a list the device holds shows at once, whatever the backend does, and the backend's first page
/// replaces it in one state when it answers.
@MainActor
@Suite struct ConversationsListCacheFirstTests {
    let clock = ManualClock()

    /// A backend behind a device cache: pages come from `backend`, the device holds `held`.
    struct DeviceBacked: ConversationRepository, CachedConversationPages {
        let backend: FakeConversationRepository
        let held: [Conversation]

        func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
            async throws(DeliveryError) -> ConversationPage
        {
            try await backend.conversations(of: user, after: cursor, limit: limit)
        }

        func cachedConversations(after cursor: ConversationCursor?, limit: Int) -> ConversationPage? {
            guard !held.isEmpty else { return nil }
            return ConversationPage(
                conversations: Array(held.prefix(limit)), hasMore: held.count > limit, isCached: true)
        }
    }

    private func row(_ id: ConversationID, with other: UserID, text: String, minutesAgo: Double) -> Conversation {
        let time = clock.now.addingTimeInterval(-minutesAgo * 60)
        return Conversation(
            id: id, participantIDs: ["me", other],
            lastMessage: ConversationsListFixture.message(
                "m-\(id.rawValue)", in: id, from: other, text: text, at: time),
            lastActivity: time, unreadCount: 1)
    }

    private func makeList(held: [Conversation], backend: [Conversation], latency: Duration) -> (
        ConversationsListViewModel, FakeConversationRepository
    ) {
        let repository = FakeConversationRepository(backend, clock: clock, latency: latency)
        let directory = FakeUserDirectory([User(id: "ana", displayName: "Ana"), User(id: "ben", displayName: "Ben")])
        let model = ConversationsListViewModel(
            currentUser: "me", conversations: DeviceBacked(backend: repository, held: held), users: directory,
            clock: clock, sync: FakeLiveSync())
        return (model, repository)
    }

    @Test func aHeldListShowsAtOnceWithItsNamesAndTheBackendsPageReplacesItInOneState() async {
        // Given a device holding Ana's chat and a backend (4 s away) where Ben has written since
        let held = [row("c1", with: "ana", text: "old news", minutesAgo: 30)]
        let fresh = [row("c2", with: "ben", text: "new", minutesAgo: 1)] + held
        let (model, repository) = makeList(held: held, backend: fresh, latency: .seconds(4))
        let recorder = StateRecorder(model)

        // When the list loads, before the backend answers anything
        model.load()

        // Then the held row shows at once, titled by the name the device holds, still loading; no time has passed
        #expect(recorder.states.last?.items.map(\.title) == ["Ana"])
        #expect(recorder.states.last?.items.map(\.preview) == ["old news"])
        #expect(recorder.states.last?.isLoading == true)
        let before = recorder.states.count

        // And when the backend answers, its page replaces the held one in one state (never an empty list between)
        await clock.advance(by: .seconds(5))
        #expect(repository.requests == 1)
        #expect(recorder.states.count == before + 1)
        #expect(recorder.states.last?.items.map(\.title) == ["Ben", "Ana"])
        #expect(recorder.states.last?.isLoading == false)
    }

    @Test func aHeldListStandsWhenTheBackendFailsAndSaysWhy() async {
        // Given a device holding Ana's chat and a backend whose sign-in expired
        let held = [row("c1", with: "ana", text: "old news", minutesAgo: 30)]
        let (model, repository) = makeList(held: held, backend: held, latency: .seconds(1))
        repository.fail(with: .unauthorized)

        // When the list loads and the backend refuses
        model.load()
        await clock.advance(by: .seconds(2))

        // Then the held row stays, and the error says why
        #expect(model.state.items.map(\.title) == ["Ana"])
        #expect(model.state.error == "Authentication error. Please sign in again.")
        #expect(model.state.isLoading == false)
    }

    @Test func aListTheDeviceDoesNotHoldWaitsForTheBackendAsBefore() async {
        // Given nothing held on the device
        let fresh = [row("c2", with: "ben", text: "new", minutesAgo: 1)]
        let (model, _) = makeList(held: [], backend: fresh, latency: .seconds(1))

        // When the list loads, then it shows nothing, loading, until the page comes
        model.load()
        #expect(model.state.items.isEmpty)
        #expect(model.state.isLoading)
        await clock.advance(by: .seconds(2))
        #expect(model.state.items.map(\.title) == ["Ben"])
    }
}
