import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture

/// A page, the feed's rows, a deletion and an older message: the list shows the sync's rows and counts nothing
/// itself, so what a reload would show, the list shows (each case found by the simulation's convergence check,
/// docs/reliability.md).
@MainActor
@Suite struct ConversationsListActivityTests {
    let clock = ManualClock()
    let sync = FakeLiveSync()

    /// c1 (Ana, my last message 30 s ago, one unread), c2 (Ben, 5 min ago), c3 (Chloe, 26 h ago).
    private func threeConversations() -> [Conversation] {
        let now = clock.now
        return [
            Conversation(
                id: "c1", participantIDs: ["me", "ana"],
                lastMessage: Fixture.message("m1", in: "c1", from: "me", text: "Mine", at: now.addingTimeInterval(-30)),
                lastActivity: now.addingTimeInterval(-30), unreadCount: 1),
            Conversation(
                id: "c2", participantIDs: ["me", "ben"],
                lastMessage: Fixture.message(
                    "m2", in: "c2", from: "ben", text: "Ben's", at: now.addingTimeInterval(-300)),
                lastActivity: now.addingTimeInterval(-300)),
            Conversation(
                id: "c3", participantIDs: ["me", "chloe"],
                lastMessage: Fixture.message(
                    "m3", in: "c3", from: "chloe", text: "Chloe's", at: now.addingTimeInterval(-26 * 3_600)),
                lastActivity: now.addingTimeInterval(-26 * 3_600)),
        ]
    }

    private func makeModel(
        outbox: FakeMessageOutbox? = nil, repository: FakeConversationRepository? = nil
    ) -> ConversationsListViewModel {
        ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: repository ?? FakeConversationRepository(threeConversations(), clock: clock, latency: .zero),
            users: FakeUserDirectory([]), clock: clock, outbox: outbox, sync: sync)
    }

    @Test("a page that already counts what the catch-up then announces shows the page's count, not one more")
    func aPageReadWhileTheFeedIsBehindCountsOnce() async {
        // Given a loaded list whose page already counts Ana's message (older than my last one) as unread, read while
        // the feed was behind
        let model = makeModel()
        model.load()
        await clock.idle()
        let anas = Fixture.message("r1", in: "c1", from: "ana", text: "Ana's", at: clock.now.addingTimeInterval(-60))

        // When the catch-up announces her message, and the sync's row, which already holds it
        sync.announce(.messages([anas]))
        sync.write([threeConversations()[0]])

        // Then Ana's conversation counts one unread message, as the backend does, and keeps my message as preview
        #expect(model.state.items.first?.unreadCount == 1)
        #expect(model.state.items.first?.preview == "Mine")
    }

    @Test("two messages that arrive in the background count two after a reload and the return, not three")
    func backgroundReloadForegroundCountsEachMessageOnce() async {
        // Given a loaded list, Ben's conversation read; the app goes to the background and Ben writes twice
        let repository = FakeConversationRepository(threeConversations(), clock: clock, latency: .zero)
        let model = makeModel(repository: repository)
        model.load()
        await clock.idle()
        model.enterBackground()
        await clock.advance(by: .seconds(60))
        let first = Fixture.message("b1", in: "c2", from: "ben", text: "Are you there?", at: clock.now)
        await clock.advance(by: .seconds(1))
        let second = Fixture.message("b2", in: "c2", from: "ben", text: "Hello?", at: clock.now)
        let bens = Fixture.row(threeConversations()[1], last: second, unread: 2)
        repository.replace(with: [threeConversations()[0], bens, threeConversations()[2]])

        // When the list reloads (its page counts both), the app returns and the catch-up announces both messages
        // with the row the sync holds
        model.load()
        await clock.idle()
        model.enterForeground()
        sync.announce(.messages([first, second]))
        sync.write([bens])

        // Then the badge says 2
        #expect(model.state.items.map(\.id) == ["c2", "c1", "c3"])
        #expect(model.state.items.first?.unreadCount == 2)
        #expect(model.state.items.first?.preview == "Hello?")
    }

    @Test("deleting a queued message shows the preview and the place it covered again")
    func deletingAQueuedMessageRestoresTheRow() async throws {
        // Given a loaded list and an offline outbox
        let outbox = FakeMessageOutbox(clock: clock, connectivity: ManualConnectivity(online: false))
        let model = makeModel(outbox: outbox)
        model.load()
        await clock.idle()
        let loaded = model.state.items

        // When I write to Chloe offline, which moves her row up with my draft, then delete the draft
        let draft = try outbox.compose(text: "Draft", in: "c3")
        #expect(model.state.items.map(\.id) == ["c3", "c1", "c2"])
        #expect(model.state.items.first?.preview == "Draft")
        try outbox.delete(draft.id)

        // Then the list is as the backend has it again
        #expect(model.state.items == loaded)
    }

    @Test("a row whose newest message is older than other rows' activity takes its place, not the top")
    func anOlderMessageTakesItsPlace() async {
        // Given a loaded list
        let model = makeModel()
        model.load()
        await clock.idle()

        // When the sync writes Chloe's row with her message written two minutes ago (her clock, or a late delivery)
        let late = Fixture.message("r3", in: "c3", from: "chloe", text: "Late", at: clock.now.addingTimeInterval(-120))
        sync.write([Fixture.row(threeConversations()[2], last: late, unread: 1)])

        // Then her row stands where the backend lists it: below c1 (30 s ago), above c2 (5 min ago)
        #expect(model.state.items.map(\.id) == ["c1", "c3", "c2"])
        #expect(model.state.items[1].preview == "Late")
        #expect(model.state.items[1].unreadCount == 1)
    }

    @Test("my message waiting to be sent previews its row until the sync's row has something newer")
    func aComposedMessagePreviewsUntilTheRowIsNewer() async throws {
        // Given a loaded list and an offline outbox, and my message queued in Ben's conversation
        let outbox = FakeMessageOutbox(clock: clock, connectivity: ManualConnectivity(online: false))
        let model = makeModel(outbox: outbox)
        model.load()
        await clock.idle()
        try outbox.compose(text: "Queued", in: "c2")
        #expect(model.state.items.first?.preview == "Queued")

        // When Ben writes after it, and the sync writes his row
        await clock.advance(by: .seconds(1))
        let bens = Fixture.message("b1", in: "c2", from: "ben", text: "Newer", at: clock.now)
        sync.write([Fixture.row(threeConversations()[1], last: bens, unread: 1)])

        // Then the row previews Ben's message with the sync's count
        #expect(model.state.items.first?.id == "c2")
        #expect(model.state.items.first?.preview == "Newer")
        #expect(model.state.items.first?.unreadCount == 1)
    }

    @Test("a start-over keeps a row my waiting message moved up where it stands")
    func aStartOverKeepsAComposedMessagesPlace() async throws {
        // Given a loaded list and my message queued offline in Chloe's conversation (her row on top)
        let outbox = FakeMessageOutbox(clock: clock, connectivity: ManualConnectivity(online: false))
        let model = makeModel(outbox: outbox)
        model.load()
        await clock.idle()
        try outbox.compose(text: "Draft", in: "c3")

        // When the sync starts over with a snapshot of the backend, which does not have my message
        sync.announce(
            .reset(
                FeedSnapshot(
                    position: FeedPosition(9),
                    conversations: ConversationPage(conversations: threeConversations(), hasMore: false),
                    chats: [:])))

        // Then Chloe's row stays on top with my message, the others in the snapshot's order
        #expect(model.state.items.map(\.id) == ["c3", "c1", "c2"])
        #expect(model.state.items.first?.preview == "Draft")
    }
}
