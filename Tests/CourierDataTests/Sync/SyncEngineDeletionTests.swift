import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A message its sender deleted elsewhere (on their other device, or another participant's) leaves this device: its
/// row, the caches, its row's preview and count, and a copy of mine still waiting here, which is never sent.
/// The time limit only stops a mutant that loops for ever: under the whole suite's parallel run on two cores these
/// tests wait their turns on the main actor for over a minute (they take about 3 s alone).
@MainActor
@Suite(.timeLimit(.minutes(3))) struct SyncEngineDeletionTests {
    private func deletion(of id: String, in conversation: ConversationID = "c2", by user: UserID = "ben")
        -> FeedEvent.Change
    {
        .deletion(MessageDeletion(conversationID: conversation, messageID: MessageID(id), deletedBy: user))
    }

    private func removed(_ fixture: SyncFixture) -> [MessageID] {
        fixture.updates.flatMap { update -> [MessageID] in
            if case .removed(_, let ids) = update { return ids }
            return []
        }
    }

    @Test func aMessageDeletedByItsSenderLeavesTheCacheTheScreensAndTheRowsPreviewAndCount() async throws {
        // Given two unread messages from Ben, held in the cache, the newer the row's preview
        let fixture = SyncFixture()
        try await fixture.open()
        fixture.feed.push(.message(fixture.message("b1", at: 1)))
        fixture.feed.push(.message(fixture.message("b2", at: 2)))
        await fixture.settle()
        #expect(fixture.cached("c2")?.unreadCount == 2)
        #expect(fixture.cached("c2")?.lastMessage?.id == "b2")

        // When Ben deletes the newer one
        fixture.feed.push(deletion(of: "b2"))
        await fixture.settle()

        // Then screens are told to take it away, the cache forgets it, and the row previews the one before, counting
        // one unread
        let client = try #require(fixture.client)
        #expect(removed(fixture) == ["b2"])
        #expect(client.messageCache.messages(in: "c2").map(\.id) == ["b1"])
        #expect(fixture.cached("c2")?.lastMessage?.id == "b1")
        #expect(fixture.cached("c2")?.unreadCount == 1)

        // And a relaunch reads the cache without it
        try await fixture.open()
        #expect(try #require(fixture.client).messageCache.messages(in: "c2").map(\.id) == ["b1"])
        fixture.close()
    }

    @Test func aDeletionNamingOnlyTheBackendsOwnIdFindsTheMessageHeldFromAnEarlierLaunch() async throws {
        // Given two messages from Ben held in the cache with the backend's own ids (a Matrix event id each), and a
        // relaunch since (the backend client no longer knows which Courier id an event carries)
        let fixture = SyncFixture()
        try await fixture.open()
        for (index, id) in ["b1", "b2"].enumerated() {
            var message = fixture.message(id, at: Double(index + 1))
            message.serverID = "$event-\(id)"
            fixture.feed.push(.message(message))
        }
        await fixture.settle()
        try await fixture.open()
        let relaunched = try #require(fixture.client)
        #expect(relaunched.messageCache.messages(in: "c2").map(\.serverID) == ["$event-b1", "$event-b2"])

        // When Ben deletes the older and then the newer, each named by its event id alone
        for id in ["b1", "b2"] {
            fixture.feed.push(
                .deletion(
                    MessageDeletion(
                        conversationID: "c2", messageID: MessageID("$event-\(id)"), deletedBy: "ben",
                        serverID: "$event-\(id)")))
        }
        await fixture.settle()

        // Then both leave, by their Courier ids, and the row previews nothing and counts nothing unread
        let client = try #require(fixture.client)
        #expect(removed(fixture).suffix(2) == ["b1", "b2"])
        #expect(client.messageCache.messages(in: "c2").isEmpty)
        #expect(fixture.cached("c2")?.lastMessage == nil)
        #expect(fixture.cached("c2")?.unreadCount == 0)
        fixture.close()
    }

    @Test func aCopyOfMineStillWaitingHereThatMyOtherDeviceDeletedIsNeverSent() async throws {
        // Given a message of mine shown failed here, which my other device found at the backend (an answer lost)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.messages.fail(with: .server(code: 503))
        let message = try client.outbox.compose(text: "maybe sent", in: "c2")
        // Waited for as such, within ten minutes of the clock: while every request fails, whatever else retries
        // (a receipt, a page) keeps the client busy, and waiting for all of it to end ran through 30 days of the
        // clock, which under a loaded machine took longer than the test's time limit.
        _ = await fixture.clock.run(
            until: { client.outbox.pending.first?.status == .failed }, limit: .seconds(600))
        #expect(client.outbox.pending.map(\.status) == [.failed])

        // When my other device deletes it (the backend had stored it)
        fixture.messages.fail(with: nil)
        fixture.feed.push(deletion(of: message.id.rawValue, by: "me"))
        await fixture.settle()

        // Then it leaves the outbox and the screens, and nothing sends it again, not even a Send All
        #expect(client.outbox.pending.isEmpty)
        #expect(removed(fixture) == [message.id])
        let outbox = client.outbox
        let sendAll = fixture.clock.task { await outbox.sendAll() }
        // Within ten minutes of the clock, as above: a Send All of nothing ends at once.
        _ = await fixture.clock.run(until: { sendAll.work.isFinished }, limit: .seconds(600))
        #expect(sendAll.work.isFinished)
        #expect(!fixture.messages.stored.contains { $0.id == message.id })
        fixture.close()
    }

    @Test func aDeletionOfAMessageThisDeviceNeverHeldChangesOnlyTheScreens() async throws {
        // Given nothing held of c1
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let before = fixture.cached("c1")

        // When a deletion of a message never seen here arrives
        fixture.feed.push(deletion(of: "unknown", in: "c1", by: "ana"))
        await fixture.settle()

        // Then the screens hear of it (they may hold it from a page), and the row and the outbox are untouched
        #expect(removed(fixture) == ["unknown"])
        #expect(fixture.cached("c1") == before)
        #expect(client.outbox.pending.isEmpty)
        fixture.close()
    }
}
