import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture

/// The list hears by itself: arrivals move rows up and count unread, reads clear, a start-over swaps the page.
@MainActor
@Suite struct ConversationsListSyncTests {
    let clock = ManualClock()
    let sync = FakeLiveSync()
    let network = ManualConnectivity(online: true)

    /// The list over `count` conversations (`c1` newest; unread counts `index % 3`), loaded.
    private func loaded(_ count: Int = 3, outbox: (any MessageOutbox)? = nil) async -> ConversationsListViewModel {
        let model = ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository(
                Fixture.conversations(count, newest: clock.now), clock: clock, latency: .zero),
            users: FakeUserDirectory(Fixture.users(count)), clock: clock, outbox: outbox, sync: sync)
        model.load()
        await clock.idle()
        return model
    }

    private func message(_ id: String, in conversation: ConversationID, from sender: UserID, text: String) -> Message {
        Fixture.message(id, in: conversation, from: sender, text: text, at: clock.now.addingTimeInterval(1))
    }

    @Test func anArrivalMovesItsConversationToTheTopWithItsPreviewAndOneMoreUnread() async throws {
        // Given c1, c2, c3 (c3 has no unread)
        let model = await loaded()
        let recorder = StateRecorder(model)
        #expect(model.state.items.map(\.unreadCount) == [1, 2, 0])

        // When User 3 writes in c3
        sync.announce(.messages([message("n1", in: "c3", from: "u3", text: "new here")]))

        // Then c3 moved to the top with the new preview and one unread, in one state
        #expect(recorder.states.count == 2)
        #expect(model.state.items.map(\.id) == ["c3", "c1", "c2"])
        #expect(model.state.items[0].preview == "new here")
        #expect(model.state.items[0].unreadCount == 1)
    }

    @Test func arrivalsInOneUpdateMoveTheirRowsInOneState() async throws {
        // Given c1, c2, c3 (unread 1, 2, 0)
        let model = await loaded()
        let recorder = StateRecorder(model)

        // When User 3 writes in c3 and User 2 in c2, in one update (one batch of the feed)
        sync.announce(
            .messages([
                message("n3", in: "c3", from: "u3", text: "three"),
                message("n2", in: "c2", from: "u2", text: "two"),
            ]))

        // Then both rows moved up with their previews and one more unread each, in one state
        #expect(recorder.states.map { $0.items.map(\.id) } == [["c1", "c2", "c3"], ["c2", "c3", "c1"]])
        #expect(recorder.states.map { $0.items.map(\.preview) }.last?.prefix(2) == ["two", "three"])
        #expect(recorder.states.map { $0.items.map(\.unreadCount) }.last == [3, 1, 1])
    }

    @Test func myOwnMessagesAndChatsOnScreenNeverCountUnread() async throws {
        // Given the list, with c2's chat on screen
        let model = await loaded()
        let watching = sync.watch("c2")

        // When I write in c3 from another device and User 2 writes in c2
        sync.announce(
            .messages([
                message("mine", in: "c3", from: Fixture.me, text: "from my laptop"),
                message("u2", in: "c2", from: "u2", text: "seen at once"),
            ]))

        // Then both moved up, and neither counted
        #expect(model.state.items.map(\.id) == ["c2", "c3", "c1"])
        #expect(model.state.items.map(\.unreadCount) == [2, 0, 1])
        withExtendedLifetime(watching) {}
    }

    @Test func aReadMarkerClearsWhatItCoversAndNotMore() async throws {
        // Given c2 with two unread, whose newest message is Fixture's m2
        let model = await loaded()
        let newest = try #require(Fixture.conversations(3, newest: clock.now)[1].lastMessage)

        // When a marker below the newest arrives, then one covering it
        sync.announce(
            .readByMe(
                conversation: "c2", upTo: MessageCursor(timestamp: newest.timestamp.addingTimeInterval(-1), id: "x")))
        let before = model.state.items[1].unreadCount
        sync.announce(.readByMe(conversation: "c2", upTo: newest.cursor))

        // Then only the covering one cleared the count
        #expect(before == 2)
        #expect(model.state.items[1].unreadCount == 0)
    }

    @Test func aReadMarkerStillOnItsWayKeepsTheCountClearedWhenTheListLoads() async throws {
        // Given a read marker this device made for c2 that the backend has not counted yet
        let newest = try #require(Fixture.conversations(3, newest: clock.now)[1].lastMessage)
        sync.readMarkers["c2"] = newest.cursor

        // When the list loads (the backend still says 2 unread)
        let model = await loaded()

        // Then c2 shows none
        #expect(model.state.items.map(\.unreadCount) == [1, 0, 0])
    }

    @Test func aStartOverReplacesTheFirstPageInOneStateWithoutAnEmptyList() async throws {
        // Given the loaded list
        let model = await loaded()
        let recorder = StateRecorder(model)

        // When the engine starts over with a snapshot where c3 is now first, with news
        var c3 = Fixture.conversations(3, newest: clock.now)[2]
        c3.lastMessage = message("fresh", in: "c3", from: "u3", text: "while you were away")
        c3.lastActivity = clock.now.addingTimeInterval(1)
        c3.unreadCount = 4
        let rest = Array(Fixture.conversations(3, newest: clock.now).prefix(2))
        sync.announce(
            .reset(
                FeedSnapshot(
                    position: FeedPosition(3),
                    conversations: ConversationPage(conversations: [c3] + rest, hasMore: false),
                    chats: [:])))

        // Then one state, never empty, with the snapshot's order, preview and count
        #expect(recorder.states.count == 2)
        #expect(recorder.states.allSatisfy { !$0.items.isEmpty })
        #expect(model.state.items.map(\.id) == ["c3", "c1", "c2"])
        #expect(model.state.items[0].preview == "while you were away")
        #expect(model.state.items[0].unreadCount == 4)
    }

    @Test func messagesComposedHereMoveTheListWithoutAnyWiring() async throws {
        // Given the list made with the outbox (as from a session)
        let outbox = FakeMessageOutbox(clock: clock, connectivity: network)
        let model = await loaded(outbox: outbox)

        // When I write in c3
        try outbox.compose(text: "on my way", in: "c3")

        // Then c3 is on top with my text, and not unread
        #expect(model.state.items.first?.id == "c3")
        #expect(model.state.items.first?.preview == "on my way")
        #expect(model.state.items.first?.unreadCount == 0)
    }
}

/// A list the cache answered for (the backend could not be reached) asks the backend again by itself once the feed
/// is live — it never stays stale after the reconnect — and a list the backend answered is not reloaded for it.
@MainActor
@Suite struct ConversationsListCachedPageTests {
    let clock = ManualClock()
    let sync = FakeLiveSync()

    private func list(over repository: FakeConversationRepository) -> ConversationsListViewModel {
        ConversationsListViewModel(
            currentUser: Fixture.me, conversations: repository,
            users: FakeUserDirectory(Fixture.users(3)), clock: clock, sync: sync)
    }

    @Test func aCachedFirstPageIsLoadedAgainOnceTheFeedIsLive() async {
        // Given a list opened offline, answered from the cache, which knew the first two conversations only (the
        // backend has a third, newer one)
        let conversations = Fixture.conversations(3, newest: clock.now)
        let repository = FakeConversationRepository(conversations, clock: clock)
        repository.answerFromCache(Array(conversations.dropFirst()))
        let model = list(over: repository)
        model.load()
        await clock.idle()
        #expect(model.state.items.map(\.id) == ["c2", "c3"])

        // When the device is back and the feed caught up
        sync.announce(.live(true))
        await clock.idle()

        // Then the list asked again by itself and shows what the backend holds; a later live changes nothing
        #expect(repository.requests == 2)
        #expect(model.state.items.map(\.id) == ["c1", "c2", "c3"])
        sync.announce(.live(false))
        sync.announce(.live(true))
        await clock.idle()
        #expect(repository.requests == 2)
    }

    @Test func aListTheBackendAnsweredIsNotReloadedWhenTheFeedGoesLive() async {
        let repository = FakeConversationRepository(Fixture.conversations(3, newest: clock.now), clock: clock)
        let model = list(over: repository)
        model.load()
        await clock.idle()
        sync.announce(.live(true))
        await clock.idle()
        #expect(repository.requests == 1)
    }
}
