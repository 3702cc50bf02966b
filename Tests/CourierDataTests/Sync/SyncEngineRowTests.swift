import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A conversation row has one truth: the sync engine, with the conversation cache, computes its preview, activity,
/// unread count and read state, takes every list page into it and announces the rows it writes. A page and the feed
/// never count one message twice, and a page read before what the feed brought since never undoes it (each found by
/// the simulation's convergence check).
@MainActor
@Suite struct SyncEngineRowTests {
    let world: DemoWorldFixture
    let client: CourierClient

    init() throws {
        world = try DemoWorldFixture()
        client = try world.open()
    }

    @Test("two messages that arrive in the background, a reload and the return count two, in the row and the cache")
    func backgroundReloadForegroundCountsEachMessageOnce() async throws {
        // Given the list seen online and the feed caught up; the app goes to the background and Ben writes twice
        _ = try await listPage()
        await world.waitUntilSettled(client)
        let engine = try #require(client.syncEngine)
        let before = try #require(client.conversationCache.conversation("c2")).unreadCount
        var announced: [Conversation] = []
        let token = engine.observe { update in
            if case .rows(let rows) = update { announced += rows.filter { $0.id == "c2" } }
        }
        client.enterBackground()
        try world.receive("One", from: "ben", in: "c2")
        try world.receive("Two", from: "ben", in: "c2")

        // When the list reloads (its page counts both), then the app returns and the feed brings both
        let page = try await listPage()
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then the page, every row announced since and the cache count two more, as the backend does
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == before + 2)
        #expect(page.conversations.first { $0.id == "c2" }?.unreadCount == backend)
        #expect(announced.allSatisfy { $0.unreadCount == backend })
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        token.cancel()
        client.close()
    }

    @Test("someone's message filed just before one of mine the feed brought first still counts unread")
    func aMessageFiledBeforeANewerOneOfTheSameBatchCounts() async throws {
        // Given the list seen online and the feed caught up; the app goes to the background
        _ = try await listPage()
        await world.waitUntilSettled(client)
        let before = try #require(client.conversationCache.conversation("c2")).unreadCount
        client.enterBackground()

        // When my other device writes, and Ben writes in the same instant, filed before mine (its id sorts first)
        let now = world.clock.now
        try world.backend.receive(
            Message(id: "zz-mine", conversationID: "c2", senderID: "me", text: "Mine", timestamp: now, status: .sent))
        try world.backend.receive(
            Message(id: "aa-bens", conversationID: "c2", senderID: "ben", text: "His", timestamp: now, status: .sent))
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then Ben's counts unread, as the backend counts it, under my message as the row's newest
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == before + 1)
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        #expect(client.conversationCache.conversation("c2")?.lastMessage?.id == "zz-mine")
        client.close()
    }

    @Test("a page read before a message the feed brought since keeps the row the feed wrote")
    func aPageBehindTheFeedUndoesNothing() async throws {
        // Given the list seen online, and a page of it read now, before Ben writes
        _ = try await listPage()
        await world.waitUntilSettled(client)
        let stale = try world.backend.conversations(of: "me", after: nil, limit: 50)
        let before = try #require(stale.conversations.first { $0.id == "c2" }).unreadCount

        // When Ben writes and the feed brings it, then the page read before it reaches the engine
        let bens = try world.receive("Still there?", from: "ben", in: "c2")
        await world.waitUntilSettled(client)
        let answer = try #require(client.syncEngine).reconcile(stale)

        // Then the row stays as the feed wrote it: Ben's message, one more unread
        let row = try #require(answer.conversations.first { $0.id == "c2" })
        #expect(row.lastMessage?.id == bens.id)
        #expect(row.unreadCount == before + 1)
        #expect(answer.conversations.first?.id == "c2")
        #expect(client.conversationCache.conversation("c2")?.unreadCount == before + 1)
        client.close()
    }

    @Test("a page read before a message the feed brought to a conversation with no row yet counts that message")
    func aPageBehindTheFeedOfANewRowCountsWhatTheFeedBrought() async throws {
        // Given the feed caught up and a page of the list read now, before Ben writes, the cache holding no row of
        // Ben's conversation (the list never loaded it)
        await world.waitUntilSettled(client)
        client.conversationCache.remove("c2")
        let stale = try world.backend.conversations(of: "me", after: nil, limit: 50)
        let before = try #require(stale.conversations.first { $0.id == "c2" }).unreadCount

        // When Ben writes twice and the feed brings both, then the page read before them reaches the engine
        _ = try world.receive("Still there?", from: "ben", in: "c2")
        let second = try world.receive("Hello?", from: "ben", in: "c2")
        await world.waitUntilSettled(client)
        #expect(client.conversationCache.conversation("c2") == nil)
        let answer = try #require(client.syncEngine).reconcile(stale)

        // Then the row ends at Ben's newest and counts both, as the backend does, in the answer and the cache
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == before + 2)
        let row = try #require(answer.conversations.first { $0.id == "c2" })
        #expect(row.lastMessage?.id == second.id)
        #expect(row.unreadCount == backend)
        #expect(answer.conversations.first?.id == "c2")
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        client.close()
    }

    @Test("a page behind the feed does not count a message the feed brought that this device has read since")
    func aPageBehindTheFeedSkipsWhatThisDeviceRead() async throws {
        // Given Ben's conversation read to its end and the feed caught up, a page read now (nothing unread in c2),
        // and the cache holding no row of c2
        await world.waitUntilSettled(client)
        let engine = try #require(client.syncEngine)
        let newest = try #require(world.backend.conversation("c2", for: "me")?.lastMessage)
        engine.markRead("c2", upTo: newest.cursor)
        await world.waitUntilSettled(client)
        client.conversationCache.remove("c2")
        let stale = try world.backend.conversations(of: "me", after: nil, limit: 50)
        #expect(stale.conversations.first { $0.id == "c2" }?.unreadCount == 0)

        // When Ben writes twice, the feed brings both, this device reads the first, and then the page arrives
        let first = try world.receive("Still there?", from: "ben", in: "c2")
        _ = try world.receive("Hello?", from: "ben", in: "c2")
        await world.waitUntilSettled(client)
        engine.markRead("c2", upTo: first.cursor)
        await world.waitUntilSettled(client)
        let answer = engine.reconcile(stale)

        // Then the row counts only the second, as the backend does once it has the read
        #expect(world.backend.conversation("c2", for: "me")?.unreadCount == 1)
        #expect(answer.conversations.first { $0.id == "c2" }?.unreadCount == 1)
        client.close()
    }

    @Test("a read marker still on its way keeps a loaded page's count cleared")
    func aReadOnItsWayClearsThePagesCount() async throws {
        // Given Ben's conversation with something unread, read here while offline (the receipt waits)
        _ = try await listPage()
        await world.waitUntilSettled(client)
        let newest = try #require(world.backend.conversation("c2", for: "me")?.lastMessage)
        #expect(world.backend.conversation("c2", for: "me")?.unreadCount ?? 0 > 0)
        world.network.setOnline(false)
        try #require(client.syncEngine).markRead("c2", upTo: newest.cursor)

        // When the device is back and the list loads before the receipt reaches the backend
        let stale = try world.backend.conversations(of: "me", after: nil, limit: 50)
        let answer = try #require(client.syncEngine).reconcile(stale)

        // Then the row counts nothing unread
        #expect(stale.conversations.first { $0.id == "c2" }?.unreadCount ?? 0 > 0)
        #expect(answer.conversations.first { $0.id == "c2" }?.unreadCount == 0)
        client.close()
    }

    // MARK: - Helpers

    /// The first page of the list as the list screen gets it: through the client's repository, then the engine.
    @Test("a read of my other device, a page read after it and the return: the read comes off once, in the page")
    func aReadThePageCountedAlreadyComesOffOnce() async throws {
        // Given the list seen online and the feed caught up; the app goes to the background, where my other device
        // reads c2 to its end and then Ben writes twice
        try await readToTheEndInTheBackground()
        try world.receive("One", from: "ben", in: "c2")
        try world.receive("Two", from: "ben", in: "c2")

        // When the list reloads (its page counts Ben's two, after the read), then the app returns and the feed brings
        // the read and the two messages
        _ = try await listPage()
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then the row counts two, as the backend does: the read the page had already did not come off again
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == 2)
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        client.close()
    }

    @Test("a page read ahead of the feed, whose newest message is mine and held: my earlier read takes nothing off")
    func aReadBeforeAPageEndingAtMyMessageTakesNothingOff() async throws {
        // Given the list seen online and the feed caught up; the app goes to the background, where my other device
        // reads c2 to its end and Ben writes
        try await readToTheEndInTheBackground()
        try world.receive("One", from: "ben", in: "c2")
        await world.clock.advance(by: .seconds(1))

        // When this device sends after Ben's message (its answer keeps it in the cache) and the list reloads, ending at
        // it and counting Ben's; then the app returns and the feed brings the read, Ben's message and my echo
        let mine = try client.outbox.compose(text: "Mine", in: "c2")
        await world.waitUntil { world.backend.message(mine.id) != nil && !client.isBusy }
        _ = try await listPage()
        #expect(client.conversationCache.conversation("c2")?.lastMessage?.id == mine.id)
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then the row counts Ben's one, as the backend does
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == 1)
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        client.close()
    }

    @Test("my message sent before a relaunch still counts as ahead of the feed: an earlier read takes nothing off")
    func aSendBeforeARelaunchStillAwaitsItsEcho() async throws {
        // Given my other device's read and Ben's message while the app is in the background, and my message sent then
        // (its echo not heard), the app closed
        try await readToTheEndInTheBackground()
        try world.receive("One", from: "ben", in: "c2")
        await world.clock.advance(by: .seconds(1))
        let mine = try client.outbox.compose(text: "Mine", in: "c2")
        await world.waitUntil { world.backend.message(mine.id) != nil && !client.isBusy }
        client.close()

        // When the app opens again in the background, the list reloads (ending at my message, counting Ben's), and
        // the app returns: the feed brings the read, Ben's message and my echo
        let relaunched = try world.open()
        relaunched.enterBackground()
        let conversations = relaunched.conversations
        let (result, _) = await world.clock.drive {
            try await conversations.conversations(of: "me", after: nil, limit: 50)
        }
        _ = try #require(relaunched.syncEngine).reconcile(try result.get())
        relaunched.enterForeground()
        await world.waitUntilSettled(relaunched)

        // Then the row counts Ben's one, as the backend does
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == 1)
        #expect(relaunched.conversationCache.conversation("c2")?.unreadCount == backend)
        relaunched.close()
    }

    @Test("a page the device kept while the backend did not answer leaves a count that may be short to the next page")
    func aCachedPageSettlesNoUncertainCount() async throws {
        // Given the list seen online and the feed caught up
        _ = try await listPage()
        await world.waitUntilSettled(client)
        let engine = try #require(client.syncEngine)

        // When my other device writes, and Ben in the same instant, filed before my message the row already ends at
        // (its count may now be short), and the list shows the page the device kept — the backend did not answer —
        // before a fresh one
        let short = try await mineThenBensInOneInstant()
        let kept = try #require(client.conversationCache.conversation("c2"))
        _ = engine.reconcile(ConversationPage(conversations: [kept], hasMore: false, isCached: true))
        let fresh = try await listPage()

        // Then the fresh page's count stands, as the backend counts Ben's message (seed 65229)
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == short + 1)
        #expect(fresh.conversations.first { $0.id == "c2" }?.unreadCount == backend)
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        client.close()
    }

    @Test("a page asked for before a read the backend took since leaves a count that may be short as it stands")
    func aPageOlderThanASettledReadSettlesNoUncertainCount() async throws {
        // Given the list seen online, c2's messages held by the cache (its chat was read) and the feed caught up; my
        // other device writes, and Ben in the same instant, filed before my message the row already ends at (its
        // count may now be short)
        _ = try await listPage()
        try await world.load("c2", in: client)
        await world.waitUntilSettled(client)
        let engine = try #require(client.syncEngine)
        try await mineThenBensInOneInstant()

        // When a page is asked for and read by the backend, and only then the user reads c2 up to Ben's message
        // and the backend takes the read, before the page is taken in
        let mark = engine.readsSettled
        let conversations = client.conversations
        let (result, _) = await world.clock.drive {
            try await conversations.conversations(of: "me", after: nil, limit: 50)
        }
        let page = try result.get()
        let bens = try #require(world.backend.message("aa-bens"))
        engine.markRead("c2", upTo: bens.cursor)
        await world.waitUntilSettled(client)
        #expect(engine.readsSettled > mark)
        let answer = engine.reconcile(page, requestedAt: mark)

        // Then the row counts nothing unread, as the backend does once it has the read (seed 83613)
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == 0)
        #expect(page.conversations.first { $0.id == "c2" }?.unreadCount ?? 0 > 0)
        #expect(answer.conversations.first { $0.id == "c2" }?.unreadCount == backend)
        #expect(client.conversationCache.conversation("c2")?.unreadCount == backend)
        client.close()
    }

    @Test("a count the feed left short takes the next page's count after a relaunch too")
    func anUncertainCountOutlivesARelaunch() async throws {
        // Given the list seen online and the feed caught up; my other device writes, and Ben in the same instant,
        // filed before my message the row already ends at (its count may now be short)
        _ = try await listPage()
        await world.waitUntilSettled(client)
        let short = try await mineThenBensInOneInstant()
        #expect(client.conversationCache.conversation("c2")?.unreadCount == short)

        // When the app is closed and opened again, and the list loads from the backend
        client.close()
        let relaunched = try world.open()
        await world.waitUntilSettled(relaunched)
        let conversations = relaunched.conversations
        let (result, _) = await world.clock.drive {
            try await conversations.conversations(of: "me", after: nil, limit: 50)
        }
        let answer = try #require(relaunched.syncEngine).reconcile(try result.get())

        // Then the page's count stands, as the backend counts Ben's message (seed 83930)
        let backend = try #require(world.backend.conversation("c2", for: "me")).unreadCount
        #expect(backend == short + 1)
        #expect(answer.conversations.first { $0.id == "c2" }?.unreadCount == backend)
        #expect(relaunched.conversationCache.conversation("c2")?.unreadCount == backend)
        relaunched.close()
    }

    /// The list seen online, c2's messages held by the cache (its chat was read) and the feed caught up; then the app
    /// goes to the background and my other device reads c2 to its end.
    private func readToTheEndInTheBackground() async throws {
        _ = try await listPage()
        try await world.load("c2", in: client)
        await world.waitUntilSettled(client)
        client.enterBackground()
        let newest = try #require(world.backend.messages(in: "c2").last)
        try world.backend.mark(Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: newest.cursor), as: "me")
    }

    /// My other device writes in c2, then Ben in the same instant, filed before my message the row already ends at:
    /// the row's count may now be short. Answers the count before Ben's message.
    @discardableResult
    private func mineThenBensInOneInstant() async throws -> Int {
        let now = world.clock.now
        try world.backend.receive(
            Message(id: "zz-mine", conversationID: "c2", senderID: "me", text: "Mine", timestamp: now, status: .sent))
        await world.waitUntilSettled(client)
        let short = try #require(client.conversationCache.conversation("c2")).unreadCount
        try world.backend.receive(
            Message(id: "aa-bens", conversationID: "c2", senderID: "ben", text: "His", timestamp: now, status: .sent))
        await world.waitUntilSettled(client)
        return short
    }

    private func listPage() async throws -> ConversationPage {
        let conversations = client.conversations
        let (result, _) = await world.clock.drive {
            try await conversations.conversations(of: "me", after: nil, limit: 50)
        }
        return try #require(client.syncEngine).reconcile(try result.get())
    }
}
