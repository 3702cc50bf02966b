import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture
private typealias State = ConversationsListViewModel.State
private typealias Item = ConversationsListItem

@MainActor
@Suite struct ConversationsListViewModelTests {
    let clock = ManualClock()
    let sync = FakeLiveSync()

    private func makeModel(
        _ conversations: [Conversation], users: [User], latency: Duration = .zero, pageSize: Int = 50
    ) -> (ConversationsListViewModel, FakeConversationRepository, FakeUserDirectory) {
        let repository = FakeConversationRepository(conversations, clock: clock, latency: latency)
        let directory = FakeUserDirectory(users)
        let model = ConversationsListViewModel(
            currentUser: Fixture.me, conversations: repository, users: directory, clock: clock, sync: sync,
            pageSize: pageSize)
        return (model, repository, directory)
    }

    /// Three conversations: a group with a name, a one-to-one with an image, a three-person chat without a name.
    private func threeConversations() -> [Conversation] {
        let now = clock.now
        return [
            Conversation(
                id: "c1", participantIDs: ["me", "ana"],
                lastMessage: Fixture.message(
                    "m1", in: "c1", text: "", at: now.addingTimeInterval(-30),
                    media: MediaAttachment(url: "https://img/full.jpg", thumbnailURL: "https://img/thumb.jpg")),
                lastActivity: now.addingTimeInterval(-30), unreadCount: 2),
            Conversation(
                id: "c2", participantIDs: ["me", "ben", "chloe"],
                lastMessage: Fixture.message(
                    "m2", in: "c2", from: "ben", at: now.addingTimeInterval(-5 * 60),
                    media: MediaAttachment(url: "https://img/only-full.jpg")),
                lastActivity: now.addingTimeInterval(-5 * 60)),
            Conversation(
                id: "c3", participantIDs: ["me", "ana", "ben"], name: "Weekend plans",
                lastMessage: Fixture.message("m3", in: "c3", text: "See you", at: now.addingTimeInterval(-26 * 3_600)),
                lastActivity: now.addingTimeInterval(-26 * 3_600), unreadCount: 0),
        ]
    }

    private let people = [
        User(id: "me", displayName: "Me"), User(id: "ana", displayName: "Ana"), User(id: "ben", displayName: "Ben"),
        User(id: "chloe", displayName: "Chloe"),
    ]

    private var threeRows: [Item] {
        [
            // An image says so in words ("Photo", or its caption) and names the thumbnail to draw: never a URL as
            // text, and the full-size image only when no thumbnail was made.
            Item(
                id: "c1", title: "Ana", preview: "Photo", timestamp: "Now", unreadCount: 2,
                previewImageURL: "https://img/thumb.jpg"),
            Item(
                id: "c2", title: "Ben, Chloe", preview: "hi", timestamp: "5m ago", unreadCount: 0,
                previewImageURL: "https://img/only-full.jpg"),
            Item(id: "c3", title: "Weekend plans", preview: "See you", timestamp: "Yesterday", unreadCount: 0),
        ]
    }

    // MARK: - Loading

    @Test func loadingShowsEachRowsTitlePreviewTimestampAndUnreadCount() async {
        // Given a list of three conversations
        let (model, _, _) = makeModel(threeConversations(), users: people)
        let recorder = StateRecorder(model)

        // When the first page loads
        model.loadMore()
        await clock.idle()

        // Then the rows appear once, with names, thumbnail previews and relative times
        #expect(
            recorder.states == [
                State(),
                State(isLoading: true),
                State(items: threeRows, hasMore: false, isLoading: false),
            ])
    }

    @Test func pagesOfFiftyLoadInOrderAndTheEndDoesNothing() async {
        // Given 120 conversations
        let (model, repository, _) = makeModel(Fixture.conversations(120, newest: clock.now), users: Fixture.users(120))
        let recorder = StateRecorder(model)

        // When the user loads page after page, and once more at the end
        model.loadMore()
        await clock.idle()
        #expect(model.state.items.count == 50)
        #expect(model.state.hasMore)
        model.loadMore()
        await clock.idle()
        model.loadMore()
        await clock.idle()
        let statesAtEnd = recorder.states.count
        model.loadMore()
        await clock.idle()

        // Then all 120 show, most recent first, each once; the extra load asked nothing and emitted nothing
        #expect(model.state.items.map(\.id) == (1...120).map { ConversationID("c\($0)") })
        #expect(model.state.items[119].title == "User 120")
        #expect(model.state.items[1].timestamp == "1m ago")
        #expect(!model.state.hasMore)
        #expect(repository.requests == 3)
        #expect(recorder.states.count == statesAtEnd)
        #expect(recorder.states.map(\.items.count) == [0, 0, 50, 50, 100, 100, 120])
        #expect(recorder.states.map(\.isLoading) == [false, true, false, true, false, true, false])
    }

    @Test func aSecondLoadWhileOneIsInFlightIsIgnored() async {
        // Given a backend that answers after one second
        let (model, repository, _) = makeModel(
            Fixture.conversations(60, newest: clock.now), users: Fixture.users(60), latency: .seconds(1))
        model.loadMore()
        await clock.idle()

        // When the user asks again before the answer
        model.loadMore()
        model.load()
        await clock.advance(by: .seconds(1))

        // Then one request was made and the first page shows once
        #expect(repository.requests == 1)
        #expect(model.state.items.count == 50)
    }

    @Test func aFailedLoadSaysWhyAndATryAgainClearsIt() async {
        // Given an unreachable backend
        let (model, repository, _) = makeModel(threeConversations(), users: people)
        repository.fail(with: .offline)
        let recorder = StateRecorder(model)

        // When the list loads, fails, and loads again once the backend is back
        model.loadMore()
        await clock.idle()
        repository.fail(with: nil)
        model.loadMore()
        await clock.idle()

        // Then the error shows, then goes with the rows' arrival
        let offline = "No internet connection. Showing the conversations loaded so far."
        #expect(
            recorder.states == [
                State(), State(isLoading: true), State(error: offline), State(isLoading: true),
                State(items: threeRows),
            ])
    }

    @Test(arguments: [DeliveryError.unreachable, .unanswered])
    func aBackendThatRefusesOrAnswersNothingIsSaidToBeOutOfReach(_ error: DeliveryError) async {
        // Given a backend that refuses, or a frozen one whose silence passed the bound
        let (model, repository, _) = makeModel(threeConversations(), users: people)
        repository.fail(with: error)

        // When the list loads, then it says the server can't be reached, not that loading failed
        model.loadMore()
        await clock.idle()
        #expect(model.state.error == "Can't reach the server. Showing the conversations loaded so far.")
    }

    @Test func reloadingReplacesTheRows() async {
        // Given a loaded list with a row the sync wrote since
        let (model, _, _) = makeModel(threeConversations(), users: people)
        model.loadMore()
        await clock.idle()
        let new = Fixture.message("new", in: "c3", from: "ben", at: clock.now)
        sync.write([Fixture.row(threeConversations()[2], last: new, unread: 1)])

        // When the first page is loaded again (the sync answering it as the page has it)
        sync.rows = [:]
        model.load()
        await clock.idle()

        // Then the list is the backend's again
        #expect(model.state.items == threeRows)
    }

    // MARK: - Live activity

    @Test func aRowTheSyncWroteOrAMessageComposedHereMovesItsConversationToTheTop() async {
        // Given a loaded list
        let (model, _, _) = makeModel(threeConversations(), users: people)
        model.loadMore()
        await clock.idle()
        let recorder = StateRecorder(model)

        // When Ana writes in "Weekend plans" (the sync writes its row), then I answer in Ben and Chloe's chat, then
        // my message is delivered, then the sync writes Ana's row again
        let anas = Fixture.message("r1", in: "c3", from: "ana", text: "Pizza?", at: clock.now)
        sync.write([Fixture.row(threeConversations()[2], last: anas, unread: 1)])
        var mine = Fixture.message("s1", in: "c2", from: "me", text: "On my way", at: clock.now)
        mine.status = .sending
        model.messageActivity(mine)
        mine.status = .delivered
        model.messageActivity(mine)
        sync.write([Fixture.row(threeConversations()[2], last: anas, unread: 1)])

        // Then each new message moves its row up; the row's count is the sync's, mine counts none; repeats change
        // nothing
        let rows = threeRows
        let weekend = Item(id: "c3", title: "Weekend plans", preview: "Pizza?", timestamp: "Now", unreadCount: 1)
        let benChloe = Item(id: "c2", title: "Ben, Chloe", preview: "On my way", timestamp: "Now", unreadCount: 0)
        #expect(
            recorder.states == [
                State(items: rows),
                State(items: [weekend, rows[0], rows[1]]),
                State(items: [benChloe, weekend, rows[0]]),
            ])
    }

    @Test func aRowWrittenBeforeItsPageLoadedShowsWhenThePageArrives() async {
        // Given the first page of 120 conversations
        let (model, _, _) = makeModel(Fixture.conversations(120, newest: clock.now), users: Fixture.users(120))
        model.loadMore()
        await clock.idle()

        // When a message arrives in c70 (on the second page) and the sync writes its row, then the second page loads
        let ping = Fixture.message("r70", in: "c70", from: "u70", text: "ping", at: clock.now)
        sync.write([Fixture.row(Fixture.conversations(120, newest: clock.now)[69], last: ping, unread: 2)])
        #expect(!model.state.items.contains { $0.id == "c70" })
        model.loadMore()
        await clock.idle()

        // Then c70 is at the top with the new message
        #expect(model.state.items.first?.id == "c70")
        #expect(model.state.items.first?.preview == "ping")
        #expect(model.state.items.count == 100)
    }

    @Test func aProfileChangeRetitlesTheRows() async {
        // Given a loaded list
        let (model, _, directory) = makeModel(threeConversations(), users: people)
        model.loadMore()
        await clock.idle()
        let recorder = StateRecorder(model)

        // When Ben changes his name, and then someone nobody here talks to does
        directory.change(User(id: "ben", displayName: "Benjamin"))
        directory.change(User(id: "zoe", displayName: "Zoe"))

        // Then Ben's row is retitled, once
        var rows = threeRows
        rows[1].title = "Benjamin, Chloe"
        #expect(recorder.states == [State(items: threeRows), State(items: rows)])
    }

    @Test func eachPageAsksTheDirectoryOnceForAllItsParticipants() async {
        // Given 120 conversations
        let (model, _, directory) = makeModel(Fixture.conversations(120, newest: clock.now), users: Fixture.users(120))

        // When two pages load
        model.loadMore()
        await clock.idle()
        model.loadMore()
        await clock.idle()

        // Then the directory was asked twice, for 50 people each, never for me
        #expect(directory.lookups.map(\.count) == [50, 50])
        #expect(!directory.lookups.joined().contains(Fixture.me))
    }

    @Test func theOpenChatsRowShowsNothingUnread() async {
        // Given the list, with Ana's chat (two unread) opened
        let (model, _, _) = makeModel(threeConversations(), users: people)
        model.load()
        await clock.idle()
        model.chatOpened("c1")
        let recorder = StateRecorder(model)

        // When Ana writes while her chat is open (the sync's row still counting two: the chat has not read yet),
        // then the chat reads and closes, and she writes again
        let one = Fixture.message("n1", in: "c1", from: "ana", text: "one", at: clock.now)
        sync.write([Fixture.row(threeConversations()[0], last: one, unread: 2)])
        sync.write([Fixture.row(threeConversations()[0], last: one, unread: 0)])
        model.chatOpened(nil)
        let two = Fixture.message("n2", in: "c1", from: "ana", text: "two", at: clock.now)
        sync.write([Fixture.row(threeConversations()[0], last: two, unread: 1)])

        // Then the open chat's row showed none, and the one after it counts
        #expect(recorder.states.map { $0.items[0].unreadCount } == [0, 0, 1])
        #expect(recorder.states.map { $0.items[0].preview } == ["Photo", "one", "two"])
    }
}
