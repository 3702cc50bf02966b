import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The edges where chat SDKs go wrong: echoes, expired cursors, receipts, two devices, screens that went away.
@MainActor
@Suite struct SyncEngineEdgeTests {
    /// Every event the outbox announced, in order.
    final class OutboxEvents {
        var events: [OutboxEvent] = []
        var token: ObservationToken?
    }

    private func recordOutbox(_ client: CourierClient) -> OutboxEvents {
        let recorder = OutboxEvents()
        recorder.token = client.outbox.observe { [recorder] event in recorder.events.append(event) }
        return recorder
    }

    @Test func theEchoBeforeTheSendsAnswerConfirmsTheMessageOnceAndTheAnswerChangesNothing() async throws {
        // Given a message on its way (the backend answers in 50 ms)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let outbox = recordOutbox(client)
        let message = try client.outbox.compose(text: "hello", in: "c2")

        // When the feed echoes it 10 ms in, before the answer
        var echo = message
        echo.status = .sent
        await fixture.clock.advance(by: .milliseconds(10))
        fixture.feed.push(.message(echo))
        await fixture.settle()

        // Then it is sent once, left the outbox, was never shown as arriving, and the late answer recorded nothing
        #expect(client.outbox.pending.isEmpty)
        #expect(outbox.events.map(\.status) == [.sending, .sent])
        #expect(fixture.arrived.isEmpty)
        #expect(client.outbox.storageFailureCount == 0)
        #expect(client.messageCache.messages(in: "c2").map(\.id) == [message.id])
        #expect(fixture.messages.stored.map(\.id) == [message.id])
        fixture.close()
    }

    @Test func theEchoAfterTheSendsAnswerChangesNothing() async throws {
        // Given a message the backend acknowledged
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let message = try client.outbox.compose(text: "hello", in: "c2")
        await fixture.settle()
        let outbox = recordOutbox(client)
        #expect(client.outbox.pending.isEmpty)

        // When its echo arrives
        var echo = message
        echo.status = .sent
        fixture.feed.push(.message(echo))
        await fixture.settle()

        // Then nothing changes: no event, no arrival, one cached copy, no unread
        #expect(outbox.events.isEmpty)
        #expect(fixture.arrived.isEmpty)
        #expect(client.messageCache.messages(in: "c2").map(\.id) == [message.id])
        #expect(fixture.cached("c2")?.unreadCount == 0)
        fixture.close()
    }

    @Test func aLostAnswerIsSettledByTheEchoAndTheMessageIsNeverResentOrFailed() async throws {
        // Given a message whose send failed for good (the backend stored it, but the answer was a refusal to retry)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.messages.fail(with: .timeout)
        let message = try client.outbox.compose(text: "hello", in: "c2")
        await fixture.settle()
        #expect(client.outbox.pending.first?.status == .failed)

        // When the feed echoes it (the backend did store it)
        var echo = message
        echo.status = .sent
        fixture.feed.push(.message(echo))
        await fixture.settle()

        // Then it is sent, not failed, and gone from the outbox: nothing to retry, nothing sent twice
        #expect(client.outbox.pending.isEmpty)
        #expect(client.messageCache.messages(in: "c2").first?.status == .sent)
        fixture.close()
    }

    @Test func myMessageFromAnotherDeviceArrivesAsSentAndNeverCountsUnread() async throws {
        // Given a live client
        let fixture = SyncFixture()
        try await fixture.open()

        // When I write from my other device, and then read the chat there
        let other = fixture.message("from-laptop", from: "me")
        fixture.feed.push(.message(fixture.message("ben1", at: 0.5)))
        fixture.feed.push(.message(other))
        fixture.feed.push(
            .receipt(Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: other.cursor)))
        await fixture.settle()

        // Then it arrived as mine and sent; Ben's message counted unread until my other device read it
        #expect(fixture.arrived == ["ben1", "from-laptop"])
        #expect(fixture.client?.messageCache.messages(in: "c2").last?.status == .sent)
        #expect(fixture.cached("c2")?.unreadCount == 0)
        #expect(fixture.updates.contains(.readByMe(conversation: "c2", upTo: other.cursor)))
        #expect(try fixture.engine.readMarker(for: "c2") == other.cursor)
        fixture.close()
    }

    @Test func receiptsRaiseMyMessagesSentDeliveredReadAndNeverBack() async throws {
        // Given two messages of mine the backend stored
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let first = try client.outbox.compose(text: "one", in: "c2")
        let second = try client.outbox.compose(text: "two", in: "c2")
        await fixture.settle()
        // As a backend does, it echoes what it stored before any receipt can cover it.
        for message in [first, second] {
            var echo = message
            echo.status = .sent
            fixture.feed.push(.message(echo))
        }
        await fixture.settle()

        // When Ben's device receives the first, then Ben reads both, then a late delivered receipt comes
        fixture.feed.push(.receipt(Receipt(conversationID: "c2", userID: "ben", kind: .delivered, upTo: first.cursor)))
        await fixture.settle()
        let afterDelivered = client.messageCache.messages(in: "c2").map(\.status)
        fixture.feed.push(.receipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: second.cursor)))
        fixture.feed.push(.receipt(Receipt(conversationID: "c2", userID: "ben", kind: .delivered, upTo: second.cursor)))
        await fixture.settle()

        // Then the first went delivered (the second stayed sent), then both read, and read stayed read
        #expect(afterDelivered == [.delivered, .sent])
        #expect(client.messageCache.messages(in: "c2").map(\.status) == [.read, .read])
        // and the update says which messages went read, as the cache holds them (the chat shows these)
        let read = client.messageCache.messages(in: "c2")
        #expect(
            fixture.updates.contains(.statuses(conversation: "c2", status: .read, upTo: second.cursor, messages: read)))
        fixture.close()
    }

    @Test func aReceiptForAMessageStillPendingLeavesItPending() async throws {
        // Given a message queued offline
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.connectivity.set(online: false)
        let queued = try client.outbox.compose(text: "later", in: "c2")

        // When a receipt covering it arrives (Ben read up to a newer message of his)
        fixture.feed.push(.message(fixture.message("ben-late", at: 3_600)))
        let upTo = fixture.message("ben-late", at: 3_600).cursor
        fixture.feed.push(.receipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: upTo)))
        fixture.connectivity.set(online: true)
        await fixture.settle()

        // Then the queued message is still queued: a receipt is about what the backend stores
        #expect(client.outbox.pending.map(\.id) == [queued.id])
        #expect(client.outbox.pending.first?.status == .queued)
        fixture.close()
    }

    @Test func anExpiredCursorStartsOverFromOneSnapshotKeepingTheOutbox() async throws {
        // Given a queued message and Ben's chat on screen, while the backend forgot what happened
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let watching = client.sync.watch("c2")
        fixture.connectivity.set(online: false)
        let queued = try client.outbox.compose(text: "kept", in: "c2")
        let missed = fixture.message("missed")
        fixture.feed.push(.message(missed))
        fixture.feed.forgetAll()
        let chatPage = MessagePage(messages: [missed], hasMore: false)
        fixture.feed.snapshotPages = (
            ConversationPage(
                conversations: [
                    Conversation(
                        id: "c2", participantIDs: ["me", "ben"], lastMessage: missed, lastActivity: missed.timestamp,
                        unreadCount: 0)
                ], hasMore: false), ["c2": chatPage]
        )

        // When it reconnects
        fixture.connectivity.set(online: true)
        await fixture.settle()

        // Then it asked for one snapshot, with the open chat's page, counted a reset, went on from its position,
        // and the outbox still holds the queued message (sent by the policy, not by the reset)
        let engine = try fixture.engine
        #expect(fixture.feed.snapshots == 1)
        #expect(engine.resets == 1)
        #expect(engine.cursor == fixture.feed.end)
        #expect(
            fixture.updates.contains {
                if case .reset(let snapshot) = $0 { snapshot.chats["c2"] == chatPage } else { false }
            })
        #expect(client.outbox.pending.map(\.id) == [queued.id])
        #expect(client.messageCache.messages(in: "c2").map(\.id) == [missed.id])
        #expect(engine.isLive)
        withExtendedLifetime(watching) {}
        fixture.close()
    }

    @Test func aChatOnScreenReadsWhatArrivesAndAReleasedOneNoLonger() async throws {
        // Given Ben's chat on screen
        let fixture = SyncFixture()
        let client = try await fixture.open()
        var watching: ObservationToken? = client.sync.watch("c2")
        #expect(client.sync.isWatched("c2"))

        // When Ben writes, the screen goes away, and Ben writes again
        fixture.feed.push(.message(fixture.message("seen")))
        await fixture.settle()
        let whileOpen = fixture.cached("c2")?.unreadCount
        watching = nil
        fixture.feed.push(.message(fixture.message("unseen", at: 2)))
        await fixture.settle()

        // Then only the message that came after the screen went counts unread
        #expect(watching == nil)
        #expect(!client.sync.isWatched("c2"))
        #expect(whileOpen == 0)
        #expect(fixture.cached("c2")?.unreadCount == 1)
        fixture.close()
    }

    @Test func receiptsWaitOfflineCoalescedAndTheNewestGoesOut() async throws {
        // Given a client offline that reads Ben's chat twice
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.connectivity.set(online: false)
        let older = fixture.message("r1").cursor
        let newer = fixture.message("r2", at: 2).cursor
        client.sync.markRead("c2", upTo: older)
        client.sync.markRead("c2", upTo: newer)
        client.sync.markRead("c2", upTo: older)
        #expect(try fixture.engine.receipts.count == 1)

        // When it reconnects (and relaunches first: the receipt is durable)
        try await fixture.open(loadingList: false)
        #expect(try fixture.engine.readMarker(for: "c2") == newer)
        fixture.connectivity.set(online: true)
        await fixture.settle()

        // Then one read receipt went out, for the newer marker
        #expect(fixture.feed.marks == [Receipt(conversationID: "c2", userID: "me", kind: .read, upTo: newer)])
        #expect(try fixture.engine.receipts.count == 0)
        fixture.close()
    }

    @Test func theClientSaysWhetherItsSyncIsStillSettling() async throws {
        // Given a client caught up
        let fixture = SyncFixture()
        let client = try await fixture.open()
        #expect(!client.isSyncSettling(feedEnd: fixture.feed.end))
        #expect(!client.isSyncSettling(feedEnd: nil))

        // When Ben writes, it is settling until it applied his message
        fixture.feed.push(.message(fixture.message("b1")))
        #expect(client.isSyncSettling(feedEnd: fixture.feed.end))
        await fixture.settle()
        #expect(!client.isSyncSettling(feedEnd: fixture.feed.end))

        // And in the background it makes no progress, so it is not settling, however far behind
        client.enterBackground()
        fixture.feed.push(.message(fixture.message("b2", at: 2)))
        #expect(!client.isSyncSettling(feedEnd: fixture.feed.end))
        fixture.close()
    }

    @Test func aReceiptNamesTheBackendsOwnIdOfTheMessageItMarksUpTo() async throws {
        // Given Ben's message held with the backend's own id for it (a Matrix event id)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        var bens = fixture.message("b1")
        bens.serverID = "$event-b1"
        fixture.feed.push(.message(bens))
        await fixture.settle()

        // When I read up to it
        client.sync.markRead("c2", upTo: bens.cursor)
        await fixture.settle()

        // Then the read receipt went out naming that id beside the position
        #expect(fixture.feed.marks.last?.upTo == bens.cursor)
        #expect(fixture.feed.marks.last?.upToServerID == "$event-b1")
        fixture.close()
    }

    @Test func messagesThatArriveAreAcknowledgedDeliveredOncePerConversation() async throws {
        // Given a live client
        let fixture = SyncFixture()
        try await fixture.open()

        // When Ben sends three messages and Ana one, in one batch
        fixture.connectivity.set(online: false)
        let last = fixture.message("b3", at: 3)
        fixture.feed.push(.message(fixture.message("b1")))
        fixture.feed.push(.message(fixture.message("a1", from: "ana", in: "c1", at: 1.5)))
        fixture.feed.push(.message(fixture.message("b2", at: 2)))
        fixture.feed.push(.message(last))
        fixture.connectivity.set(online: true)
        await fixture.settle()

        // Then one delivered receipt per conversation, up to its newest message
        #expect(
            Set(fixture.feed.marks) == [
                Receipt(
                    conversationID: "c1", userID: "me", kind: .delivered,
                    upTo: fixture.message("a1", from: "ana", in: "c1", at: 1.5).cursor),
                Receipt(conversationID: "c2", userID: "me", kind: .delivered, upTo: last.cursor),
            ])
        #expect(fixture.cached("c2")?.unreadCount == 3)
        #expect(fixture.cached("c1")?.unreadCount == 1)
        fixture.close()
    }
}

extension OutboxEvent {
    fileprivate var status: MessageStatus? {
        if case .changed(let message) = self { return message.status }
        return nil
    }
}
