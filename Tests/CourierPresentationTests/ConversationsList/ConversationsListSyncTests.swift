import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture

/// The list hears by itself: the rows the sync writes replace theirs and move, a start-over swaps the page; it counts
/// nothing itself.
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

    /// Row `index` (1-based) of the loaded fixture, as the sync writes it once `message` is its newest.
    private func row(_ index: Int, last message: Message, unread: Int) -> Conversation {
        Fixture.row(Fixture.conversations(3, newest: clock.now)[index - 1], last: message, unread: unread)
    }

    @Test func aRowTheSyncWroteMovesToTheTopWithItsPreviewAndCount() async throws {
        // Given c1, c2, c3 (c3 has no unread)
        let model = await loaded()
        let recorder = StateRecorder(model)
        #expect(model.state.items.map(\.unreadCount) == [1, 2, 0])

        // When User 3 writes in c3, and the sync writes its row
        sync.write([row(3, last: message("n1", in: "c3", from: "u3", text: "new here"), unread: 1)])

        // Then c3 moved to the top with the new preview and the row's count, in one state
        #expect(recorder.states.count == 2)
        #expect(model.state.items.map(\.id) == ["c3", "c1", "c2"])
        #expect(model.state.items[0].preview == "new here")
        #expect(model.state.items[0].unreadCount == 1)
    }

    @Test func rowsInOneUpdateMoveInOneState() async throws {
        // Given c1, c2, c3 (unread 1, 2, 0)
        let model = await loaded()
        let recorder = StateRecorder(model)

        // When the sync writes c3's and c2's rows in one update (one batch of the feed)
        sync.write([
            row(3, last: message("n3", in: "c3", from: "u3", text: "three"), unread: 1),
            row(2, last: message("n2", in: "c2", from: "u2", text: "two"), unread: 3),
        ])

        // Then both rows moved up with their previews and counts, in one state
        #expect(recorder.states.map { $0.items.map(\.id) } == [["c1", "c2", "c3"], ["c2", "c3", "c1"]])
        #expect(recorder.states.map { $0.items.map(\.preview) }.last?.prefix(2) == ["two", "three"])
        #expect(recorder.states.map { $0.items.map(\.unreadCount) }.last == [3, 1, 1])
    }

    @Test func theListCountsNothingItself() async throws {
        // Given the list
        let model = await loaded()
        let recorder = StateRecorder(model)

        // When messages arrive and a read is heard, with no row written for them
        let read = try #require(Fixture.conversations(3, newest: clock.now)[1].lastMessage)
        sync.announce(.messages([message("u3", in: "c3", from: "u3", text: "hello")]))
        sync.announce(.readByMe(conversation: "c2", upTo: read.cursor))

        // Then nothing changed: preview, order and counts are the sync's rows alone
        #expect(recorder.states.count == 1)
    }

    @Test func aReadShowsAsTheRowTheSyncWrote() async throws {
        // Given c2 with two unread
        let model = await loaded()
        let newest = try #require(Fixture.conversations(3, newest: clock.now)[1].lastMessage)

        // When the sync writes c2's row after a read (the same newest message, nothing unread)
        sync.write([row(2, last: newest, unread: 0)])

        // Then c2 shows none, in its place
        #expect(model.state.items.map(\.id) == ["c1", "c2", "c3"])
        #expect(model.state.items.map(\.unreadCount) == [1, 0, 0])
    }

    @Test func aPageShowsAsTheSyncAnswersIt() async throws {
        // Given the sync holding c2 read (its receipt on its way, the backend still counting 2)
        let newest = try #require(Fixture.conversations(3, newest: clock.now)[1].lastMessage)
        sync.rows["c2"] = row(2, last: newest, unread: 0)

        // When the list loads
        let model = await loaded()

        // Then c2 shows the sync's count, not the page's
        #expect(model.state.items.map(\.unreadCount) == [1, 0, 0])
    }

    @Test func aPageIsTakenInWithTheReadsTheBackendHadWhenItWasAskedFor() async {
        // Given the sync with two reads of this device settled, and a backend a second away
        sync.readsSettled = 2
        let model = ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository(
                Fixture.conversations(3, newest: clock.now), clock: clock, latency: .seconds(1)),
            users: FakeUserDirectory(Fixture.users(3)), clock: clock, sync: sync)

        // When the list asks for its page, and a third read settles while the page is on its way
        model.load()
        sync.readsSettled = 3
        await clock.advance(by: .seconds(2))

        // Then the page is taken in with the mark of when it was asked for: the read since may be missing from it
        #expect(model.state.items.count == 3)
        #expect(sync.reconciledMarks == [2])
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
