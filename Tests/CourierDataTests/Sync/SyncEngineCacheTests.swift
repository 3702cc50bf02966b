import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// What the sync engine leaves in the caches an offline screen reads: no conversation with a hole after a start-over,
/// unread counts a read marker brings down to what it leaves, and the preview of a message whose send was answered
/// first (found by the simulation's convergence check).
@MainActor
@Suite struct SyncEngineCacheTests {
    let world: DemoWorldFixture
    let client: CourierClient

    init() throws {
        world = try DemoWorldFixture()
        client = try world.open()
    }

    @Test("after a start-over, a chat the snapshot did not bring is not served from the cache with a hole")
    func aStartOverForgetsWhatItCannotJoin() async throws {
        // Given Ben's whole conversation seen online, and the app in the background while Ben writes and the
        // backend forgets every event it kept
        _ = try await world.load("c2", in: client)
        client.enterBackground()
        try world.receive("Missed this?", from: "ben", in: "c2")
        try world.backend.trimFeeds()

        // When the app comes back (its cursor expired: it starts over, with no chat open) and Ben writes again
        client.enterForeground()
        await waitUntilSettled()
        try world.receive("Later", from: "ben", in: "c2")
        await waitUntilSettled()

        // Then, offline, the chat's page from the cache is what the device saw whole: Ben's last message, with
        // more to load — not the old conversation with his next-to-last message missing
        world.network.setOnline(false)
        let page = try await client.messages.messages(in: "c2", before: nil, limit: 50)
        #expect(page.messages.map(\.text) == ["Later"])
        #expect(page.hasMore)
        #expect(client.syncEngine?.resets == 1)
        client.close()
    }

    @Test("a start-over raises my cached messages older than its page as far as the page's statuses reach")
    func aStartOverRaisesWhatItsPageDoesNotHold() async throws {
        // Given Ben's conversation on screen, with a message of mine that a page of Ben's messages since pushes out
        // of a snapshot's page, and a newer one of mine
        _ = try await world.load("c2", in: client)
        let sync = try #require(client.syncEngine)
        let watching = sync.watch("c2")
        let old = try world.receive("Old one", from: "me", in: "c2")
        for index in 0..<50 {
            await world.clock.advance(by: .seconds(1))
            try world.receive("Ben \(index)", from: "ben", in: "c2")
        }
        await world.clock.advance(by: .seconds(1))
        let new = try world.receive("New one", from: "me", in: "c2")
        await waitUntilSettled()
        #expect(client.messageCache.message(old.id, in: "c2")?.status == .sent)
        var updates: [SyncUpdate] = []
        let token = sync.observe { updates.append($0) }

        // When, the app in the background, Ben reads up to my newer message and the backend forgets every event
        // (the receipt among them), and the app comes back and starts over
        client.enterBackground()
        try world.backend.mark(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: new.cursor), as: "ben")
        try world.backend.trimFeeds()
        client.enterForeground()
        await waitUntilSettled()

        // Then my older message is read in the cache, as the backend says, and the chat on screen hears so
        #expect(sync.resets == 1)
        #expect(client.messageCache.message(new.id, in: "c2")?.status == .read)
        #expect(client.messageCache.message(old.id, in: "c2")?.status == .read)
        let raised = updates.flatMap { update -> [Message] in
            guard case .statuses(_, .read, _, let messages) = update else { return [] }
            return messages
        }
        #expect(raised.contains { $0.id == old.id })
        token.cancel()
        watching.cancel()
        client.close()
    }

    @Test("reading up to someone's message clears the cached count though a later message of mine is the newest")
    func aReadMarkerLeavesTheCountOfWhatFollowsIt() async throws {
        // Given the list and Ben's conversation seen online; Ben writes, then I answer from another device
        await world.loadList(in: client)
        _ = try await world.load("c2", in: client)
        let bens = try world.receive("Lunch?", from: "ben", in: "c2")
        try world.receive("Sure", from: "me", in: "c2")
        await waitUntilSettled()
        let before = try await offlineUnread(in: "c2")
        #expect(before == 2)  // his last message of the demo data, and this one

        // When this device reads the conversation up to Ben's message (its chat shows it)
        try #require(client.syncEngine).markRead("c2", upTo: bens.cursor)

        // Then the list, read from the cache offline, counts nothing unread there, as the backend will
        #expect(try await offlineUnread(in: "c2") == 0)
        client.close()
    }

    @Test("my message whose send was answered before its echo came becomes the cached preview")
    func anAnsweredMessageBecomesTheCachedPreview() async throws {
        // Given the list seen online, and a message I send while the app hears nothing of the feed (background)
        await world.loadList(in: client)
        client.enterBackground()
        try client.outbox.compose(text: "On my way", in: "c2")
        await world.run { await client.idle() }

        // When the app comes back and the feed echoes it (the message is known by then)
        client.enterForeground()
        await waitUntilSettled()

        // Then the list, read from the cache offline, previews my message, as the backend does
        world.network.setOnline(false)
        let page = try await client.conversations.conversations(of: "me", after: nil, limit: 50)
        #expect(page.conversations.first { $0.id == "c2" }?.lastMessage?.text == "On my way")
        #expect(world.backend.conversation("c2")?.lastMessage?.text == "On my way")
        client.close()
    }

    @Test("my message an earlier launch sent is announced by its echo, for screens that never heard of it")
    func anEarlierLaunchsMessageIsAnnouncedByItsEcho() async throws {
        // Given a message sent (answered) while the app heard nothing of the feed, and the app closed before its echo
        let disk = SimulatedFileSystem()
        let open = { try world.open("/later", seed: 4, disk: disk) }
        let earlier = try open()
        await waitUntilSettled(earlier)
        earlier.enterBackground()
        let message = try earlier.outbox.compose(text: "Sent before the relaunch", in: "c2")
        await world.run { await earlier.idle() }
        earlier.close()

        // When the app opens again and its feed brings the echo
        let client = try open()
        var announced: [MessageID] = []
        let token = try #require(client.syncEngine).observe { update in
            if case .messages(let messages) = update { announced += messages.map(\.id) }
        }
        await waitUntilSettled(client)

        // Then screens hear of the message (a list loaded from the cache learns its new last message)
        #expect(announced.contains(message.id))
        token.cancel()
        client.close()
        self.client.close()
    }

    @Test("a message a chat's page brought before its event came is still announced to the list")
    func aMessageAPageBroughtFirstIsAnnounced() async throws {
        // Given the list seen online, the feed not heard (background), and Ben writing
        await world.loadList(in: client)
        client.enterBackground()
        let bens = try world.receive("Are you there?", from: "ben", in: "c2")
        var announced: [MessageID] = []
        let token = try #require(client.syncEngine).observe { update in
            if case .messages(let messages) = update { announced += messages.map(\.id) }
        }

        // When his chat's page loads first (bringing the message into the message cache), then the feed catches up
        _ = try await world.load("c2", in: client)
        client.enterForeground()
        await waitUntilSettled()

        // Then the message is announced, for the list to move the conversation and count it, and cached there
        #expect(announced == [bens.id])
        world.network.setOnline(false)
        let page = try await client.conversations.conversations(of: "me", after: nil, limit: 50)
        #expect(page.conversations.first { $0.id == "c2" }?.lastMessage?.id == bens.id)
        token.cancel()
        client.close()
    }

    // MARK: - Helpers

    /// The conversation's unread count as the list reads it offline: from the conversation cache.
    private func offlineUnread(in conversation: ConversationID) async throws -> Int? {
        world.network.setOnline(false)
        defer { world.network.setOnline(true) }
        let page = try await client.conversations.conversations(of: "me", after: nil, limit: 50)
        return page.conversations.first { $0.id == conversation }?.unreadCount
    }

    private func waitUntilSettled(_ client: CourierClient? = nil) async {
        await world.waitUntilSettled(client ?? self.client)
    }
}
