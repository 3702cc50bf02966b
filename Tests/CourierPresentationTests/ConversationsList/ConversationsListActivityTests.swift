import CourierDomain
import CourierPresentation
import CourierTestSupport
import Foundation
import Testing

private typealias Fixture = ConversationsListFixture

/// Activity that meets a page, a deletion and an older message: what a reload would show, the list shows
/// (each case found by the simulation's convergence check, docs/reliability.md).
@MainActor
@Suite struct ConversationsListActivityTests {
    let clock = ManualClock()

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

    private func makeModel(outbox: FakeMessageOutbox? = nil, sync: FakeLiveSync? = nil) -> ConversationsListViewModel {
        ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository(threeConversations(), clock: clock, latency: .zero),
            users: FakeUserDirectory([]), clock: clock, outbox: outbox, sync: sync)
    }

    @Test("a message that reached the backend before the page was read counts once")
    func activityBeforeThePageCountsOnce() async {
        // Given a list not loaded yet, which hears of Ana's message (older than my last one) before its page comes
        let model = makeModel()
        model.messageActivity(
            Fixture.message("r1", in: "c1", from: "ana", text: "Ana's", at: clock.now.addingTimeInterval(-60)))

        // When the page, which already counts Ana's message as unread, loads
        model.load()
        await clock.idle()

        // Then Ana's conversation counts one unread message, as the backend does, and keeps my message as preview
        #expect(model.state.items.first?.unreadCount == 1)
        #expect(model.state.items.first?.preview == "Mine")
    }

    @Test("a message heard before the page was asked for counts once, even when newer than the page's last")
    func activityHeardBeforeTheRequestCountsOnce() async {
        // Given a backend whose c1 ends with my message written offline an hour ago and delivered just now, after
        // Ana's message of a minute ago, which it counts unread; the list, not loaded yet, hears of Ana's message
        let now = clock.now
        let anas = Fixture.message("r1", in: "c1", from: "ana", text: "Ana's", at: now.addingTimeInterval(-60))
        var conversations = threeConversations()
        conversations[0].lastMessage = Fixture.message(
            "late", in: "c1", from: "me", text: "Written offline", at: now.addingTimeInterval(-3_600))
        conversations[0].unreadCount = 1
        let model = ConversationsListViewModel(
            currentUser: Fixture.me,
            conversations: FakeConversationRepository(conversations, clock: clock, latency: .zero),
            users: FakeUserDirectory([]), clock: clock)
        model.messageActivity(anas)

        // When the first page loads
        model.load()
        await clock.idle()

        // Then Ana's message counts once, as the backend counts it
        #expect(model.state.items.first { $0.id == "c1" }?.unreadCount == 1)
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

    @Test("a message older than other rows' activity moves its row to its place, not to the top")
    func anOlderMessageTakesItsPlace() async {
        // Given a loaded list
        let model = makeModel()
        model.load()
        await clock.idle()

        // When Chloe's message written two minutes ago arrives (her clock, or a late delivery)
        model.messageActivity(
            Fixture.message("r3", in: "c3", from: "chloe", text: "Late", at: clock.now.addingTimeInterval(-120)))

        // Then her row stands where the backend lists it: below c1 (30 s ago), above c2 (5 min ago)
        #expect(model.state.items.map(\.id) == ["c1", "c3", "c2"])
        #expect(model.state.items[1].preview == "Late")
        #expect(model.state.items[1].unreadCount == 1)
    }

    @Test("a read marker clears what it covers even when my own later message is the newest")
    func aReadMarkerBeforeMyOwnMessageClearsTheCount() async {
        // Given a loaded list in which Ben writes (one unread), then I answer from another device
        let sync = FakeLiveSync()
        let model = makeModel(sync: sync)
        model.load()
        await clock.idle()
        await clock.advance(by: .seconds(1))
        let bens = Fixture.message("r2", in: "c2", from: "ben", text: "Lunch?", at: clock.now)
        sync.announce(.messages([bens]))
        await clock.advance(by: .seconds(1))
        sync.announce(.messages([Fixture.message("s2", in: "c2", from: "me", text: "Sure", at: clock.now)]))
        #expect(model.state.items.first?.unreadCount == 1)

        // When the feed says I read the conversation up to Ben's message (on that device, before answering)
        sync.announce(.readByMe(conversation: "c2", upTo: bens.cursor))

        // Then nothing is unread: my answer, the newest message, counts nothing
        #expect(model.state.items.first?.id == "c2")
        #expect(model.state.items.first?.unreadCount == 0)
        #expect(model.state.items.first?.preview == "Sure")
    }

    @Test("a read marker short of a message counted since leaves that one unread")
    func aReadMarkerLeavesLaterMessagesUnread() async {
        // Given a loaded list in which Ana (one unread in the page) writes twice more
        let sync = FakeLiveSync()
        let model = makeModel(sync: sync)
        model.load()
        await clock.idle()
        await clock.advance(by: .seconds(1))
        let first = Fixture.message("r1", in: "c1", from: "ana", text: "One", at: clock.now)
        await clock.advance(by: .seconds(1))
        let second = Fixture.message("r2", in: "c1", from: "ana", text: "Two", at: clock.now)
        sync.announce(.messages([first, second]))
        #expect(model.state.items.first?.unreadCount == 3)

        // When I read up to her first new message elsewhere
        sync.announce(.readByMe(conversation: "c1", upTo: first.cursor))

        // Then her second one is still unread
        #expect(model.state.items.first?.unreadCount == 1)
    }
}
