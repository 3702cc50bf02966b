import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Which of the user's messages another participant's receipt raises: those before its marker in compose order, the
/// order the backend files them in — also one that reached the backend after the receipt was made, which the backend
/// files before the message read (found by the simulation's convergence check).
@MainActor
@Suite struct SyncEngineReceiptCoverageTests {
    let world: DemoWorldFixture

    init() throws { world = try DemoWorldFixture() }

    /// With batches of 500 the echo of "late" comes in the receipt's batch, after it; with batches of one it comes in
    /// a later batch, and only the send's answer tells that the message is stored, and read.
    @Test(
        "a message written offline before the other's, delivered after they read, is filed before it and read with it",
        arguments: [500, 1])
    func aReceiptCoversAMessageFiledBeforeItsMarker(batchLimit: Int) async throws {
        // Given a client listening to the backend through the simulated network, and a message of mine Ben has
        let client = try world.open(settings: SyncSettings(batchLimit: batchLimit))
        var statuses: [MessageCursor] = []
        let token = try #require(client.syncEngine).observe { update in
            if case .statuses(_, _, let upTo, _) = update { statuses.append(upTo) }
        }
        let early = try client.outbox.compose(text: "early", in: "c2")
        await world.waitUntilSettled(client)

        // When I write "late" offline; Ben writes and reads the conversation up to his message; and, back online,
        // my message is stored before the app hears of Ben's read (it was in the background meanwhile)
        world.network.setOnline(false)
        await world.clock.advance(by: .seconds(1))
        let late = try client.outbox.compose(text: "late", in: "c2")
        await world.clock.advance(by: .seconds(1))
        let bens = try world.backend.receive(
            Message(
                id: "ben-1", conversationID: "c2", senderID: "ben", text: "Still there?", timestamp: world.clock.now,
                status: .sent))
        try world.backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: bens.cursor))
        client.enterBackground()
        world.network.setOnline(true)
        await world.run { await client.sendAll() }
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then "late", composed before Ben's message, is filed before it and read with it, though it reached the
        // backend after Ben read (the backend cannot tell what he saw): the device shows what the backend reports.
        // The receipt itself raised "early" only; "late" came read in its send's answer.
        let stored = world.backend.messagesWithStatuses(in: "c2")
        #expect(stored.suffix(3).map(\.id) == [early.id, late.id, bens.id])
        #expect(stored.first { $0.id == early.id }?.status == .read)
        #expect(stored.first { $0.id == late.id }?.status == .read)
        let cached = client.messageCache.messages(in: "c2")
        #expect(cached.first { $0.id == early.id }?.status == .read)
        #expect(cached.first { $0.id == late.id }?.status == .read)
        #expect(Set(statuses) == [early.cursor])
        token.cancel()
        client.close()
    }

    @Test("a held-back message the world.backend files before the one read is read with it")
    func aHeldBackMessageIsCoveredWithTheOneAfterIt() async throws {
        // Given a client that has seen Ben's whole conversation, whose first message fails while the second goes
        let client = try world.open()
        try await world.load("c2", in: client)
        client.enterBackground()
        let first = try await world.composeFailed("first", in: "c2", by: client)
        let second = try client.outbox.compose(text: "second", in: "c2")
        await world.waitUntil { !client.isBusy }

        // When Ben reads up to "second", then "first" is sent again: the backend files it before "second"
        try world.backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: second.cursor))
        await world.run { try? await client.outbox.send(first.id) }
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then both are read, as the backend reports them, though "first" reached it after Ben read
        let stored = world.backend.messagesWithStatuses(in: "c2")
        #expect(stored.suffix(2).map(\.text) == ["first", "second"])
        #expect(stored.suffix(2).map(\.status) == [.read, .read])
        let cached = client.messageCache.messages(in: "c2")
        #expect(cached.first { $0.id == first.id }?.status == .read)
        #expect(cached.first { $0.id == second.id }?.status == .read)
        client.close()
    }

    @Test("a message pending at launch that an earlier launch had stored is read when the receipt says so")
    func aMessageFromAnEarlierLaunchIsCovered() async throws {
        // Given a message queued offline by one launch, which the backend stores anyway (an earlier send whose answer
        // was lost), and the backend forgetting its events, so the next launch starts over past the message's echo
        let open = { try world.open() }
        let earlier = try open()
        await world.waitUntilSettled(earlier)
        world.network.setOnline(false)
        let message = try earlier.outbox.compose(text: "hello", in: "c2")
        earlier.close()
        var stored = message
        stored.status = .sent
        try world.backend.receive(stored)
        try world.backend.trimFeeds()
        world.network.setOnline(true)
        let client = try open()
        await world.waitUntilSettled(client)

        // When the next launch sends it again (the backend answers with the copy it has), and Ben reads it
        await world.run { await client.sendAll() }
        try world.backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: message.cursor))
        await world.waitUntilSettled(client)

        // Then it is read: its echo came in the earlier launch's feed, and waiting for another would wait for ever
        #expect(world.backend.messagesWithStatuses(in: "c2").last?.status == .read)
        #expect(client.messageCache.messages(in: "c2").last { $0.id == message.id }?.status == .read)
        client.close()
    }

    /// Whether Ben's receipt is applied before "first" is sent again (it is read from the send's answer) or after
    /// (the messages before "first" are raised along with it).
    @Test(
        "a held-back message filed before a read one arrives read, and so does everything before it",
        arguments: [true, false])
    func aHeldBackMessageArrivesRead(receiptFirst: Bool) async throws {
        // Given a client that has seen Ben's whole conversation; "zero" goes, "first" fails, "second" goes
        let client = try world.open()
        var statuses: [MessageID: MessageStatus] = [:]
        let token = client.outbox.observe { event in
            if case .changed(let message) = event { statuses[message.id] = message.status }
        }
        try await world.load("c2", in: client)
        let zero = try client.outbox.compose(text: "zero", in: "c2")
        await world.waitUntilSettled(client)
        await world.clock.advance(by: .seconds(1))
        let first = try await world.composeFailed("first", in: "c2", by: client)
        let second = try client.outbox.compose(text: "second", in: "c2")
        await world.waitUntilSettled(client)

        // When Ben reads up to "second" and "first" is sent again, the app hearing of the read before or after
        if !receiptFirst { client.enterBackground() }
        try world.backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: second.cursor))
        if receiptFirst { await world.waitUntilSettled(client) }
        await world.run { try? await client.outbox.send(first.id) }
        client.enterForeground()
        await world.waitUntilSettled(client)

        // Then all three are read, as the backend reports them; "first" was announced read
        #expect(world.backend.messagesWithStatuses(in: "c2").suffix(3).map(\.status) == [.read, .read, .read])
        let cached = client.messageCache.messages(in: "c2")
        for message in [zero, first, second] {
            #expect(cached.first { $0.id == message.id }?.status == .read, "\(message.text)")
        }
        #expect(statuses[first.id] == .read)
        token.cancel()
        client.close()
    }

    @Test("a message of mine from another device, filed before one of mine Ben read, arrives read")
    func aLateMessageOfMineFromAnotherDeviceIsCoveredByTheMarker() async throws {
        // Given a message of mine from this device, stored and echoed, which Ben read
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let here = try client.outbox.compose(text: "from my phone", in: "c2")
        await fixture.settle()
        var echo = here
        echo.status = .sent
        fixture.feed.push(.message(echo))
        fixture.feed.push(.receipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: here.cursor)))
        await fixture.settle()
        #expect(client.messageCache.messages(in: "c2").last?.status == .read)

        // When the feed brings a message I wrote on my laptop, whose clock runs behind: filed before the one Ben
        // read, and published as stored, `sent`
        var laptop = fixture.message("laptop-1", from: "me", in: "c2")
        laptop.timestamp = here.timestamp.addingTimeInterval(-1)
        fixture.feed.push(.message(laptop))
        await fixture.settle()

        // Then it is read on this device too, as Ben's marker covers it: in what screens hear, and every message of
        // mine the cache holds
        #expect(client.messageCache.messages(in: "c2").allSatisfy { $0.senderID != "me" || $0.status == .read })
        let heard = fixture.updates.flatMap { update -> [Message] in
            if case .messages(let messages) = update { return messages }
            return []
        }
        #expect(heard.first { $0.id == laptop.id }?.status == .read)
        fixture.close()
    }
}
