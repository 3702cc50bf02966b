import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Which of the user's messages another participant's receipt raises: those the backend stored before the receipt
/// was made, whatever their place in compose order, and those it files before them (found by the simulation's
/// convergence check).
@MainActor
@Suite struct SyncEngineReceiptCoverageTests {
    let clock = ManualClock()

    /// With batches of 500 the echo of "late" comes in the receipt's batch, after it; with batches of one it comes in
    /// a later batch, and only the send's answer tells that the message is stored.
    @Test(
        "a read receipt made before this device's message reached the backend does not mark it read",
        arguments: [500, 1])
    func aReceiptDoesNotCoverAMessageStoredAfterIt(batchLimit: Int) async throws {
        // Given a client listening to the backend through the simulated network, and a message of mine Ben has
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
        let client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(3), feed: network,
            syncSettings: SyncSettings(batchLimit: batchLimit), fileSystem: SimulatedFileSystem())
        var statuses: [MessageCursor] = []
        let token = try #require(client.syncEngine).observe { update in
            if case .statuses(_, _, let upTo) = update { statuses.append(upTo) }
        }
        let early = try client.outbox.compose(text: "early", in: "c2")
        await waitUntilSettled(client, backend)

        // When I write "late" offline; Ben writes and reads the conversation up to his message; and, back online,
        // my message is stored before the app hears of Ben's read (it was in the background meanwhile)
        network.setOnline(false)
        await clock.advance(by: .seconds(1))
        let late = try client.outbox.compose(text: "late", in: "c2")
        await clock.advance(by: .seconds(1))
        let bens = try backend.receive(
            Message(
                id: "ben-1", conversationID: "c2", senderID: "ben", text: "Still there?", timestamp: clock.now,
                status: .sent))
        try backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: bens.cursor))
        client.enterBackground()
        network.setOnline(true)
        let sending = clock.task { await client.sendAll() }
        _ = await clock.run(until: { sending.work.isFinished })
        client.enterForeground()
        await waitUntilSettled(client, backend)

        // Then Ben's read raised "early" only: "late" reached the backend after it, which reports it sent
        let stored = backend.messagesWithStatuses(in: "c2")
        #expect(stored.first { $0.id == early.id }?.status == .read)
        #expect(stored.first { $0.id == late.id }?.status == .sent)
        let cached = client.messageCache.messages(in: "c2")
        #expect(cached.first { $0.id == early.id }?.status == .read)
        #expect(cached.first { $0.id == late.id }?.status == .sent)
        #expect(statuses == [early.cursor])
        token.cancel()
        client.close()
    }

    @Test("a held-back message the backend files before the one read is read with it")
    func aHeldBackMessageIsCoveredWithTheOneAfterIt() async throws {
        // Given a client that has seen Ben's whole conversation, whose first message fails while the second goes
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
        let client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(3), feed: network,
            fileSystem: SimulatedFileSystem())
        let messages = client.messages
        let loading = clock.task { _ = try? await messages.messages(in: "c2", before: nil, limit: 50) }
        _ = await clock.run(until: { loading.work.isFinished })
        client.enterBackground()
        network.failRate = 1
        let first = try client.outbox.compose(text: "first", in: "c2")
        await waitUntil { client.outbox.pending.first?.status == .failed }
        network.failRate = 0
        await clock.advance(by: .seconds(1))
        let second = try client.outbox.compose(text: "second", in: "c2")
        await waitUntil { !client.isBusy }

        // When Ben reads up to "second", then "first" is sent again: the backend files it before "second"
        try backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: second.cursor))
        let retrying = clock.task { try? await client.outbox.send(first.id) }
        _ = await clock.run(until: { retrying.work.isFinished })
        client.enterForeground()
        await waitUntilSettled(client, backend)

        // Then both are read, as the backend reports them, though "first" reached it after Ben read
        let stored = backend.messagesWithStatuses(in: "c2")
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
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
        let disk = SimulatedFileSystem()
        let open = {
            try CourierClient(
                directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network,
                conversations: network, users: network, connectivity: network, clock: self.clock, ids: .seeded(3),
                feed: network, fileSystem: disk)
        }
        let earlier = try open()
        await waitUntilSettled(earlier, backend)
        network.setOnline(false)
        let message = try earlier.outbox.compose(text: "hello", in: "c2")
        earlier.close()
        var stored = message
        stored.status = .sent
        try backend.receive(stored)
        try backend.trimFeeds()
        network.setOnline(true)
        let client = try open()
        await waitUntilSettled(client, backend)

        // When the next launch sends it again (the backend answers with the copy it has), and Ben reads it
        let sending = clock.task { await client.sendAll() }
        _ = await clock.run(until: { sending.work.isFinished })
        try backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: message.cursor))
        await waitUntilSettled(client, backend)

        // Then it is read: its echo came in the earlier launch's feed, and waiting for another would wait for ever
        #expect(backend.messagesWithStatuses(in: "c2").last?.status == .read)
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
        let backend = try InMemoryChatBackend(
            seed: DemoData.make(seed: 1, now: clock.now), journal: InMemoryBackendJournal())
        let network = NetworkConditioner(backend: backend, clock: clock, random: LockedRandom(seed: 1))
        let client = try CourierClient(
            directory: URL(fileURLWithPath: "/app"), currentUser: "me", messages: network, conversations: network,
            users: network, connectivity: network, clock: clock, ids: .seeded(3), feed: network,
            fileSystem: SimulatedFileSystem())
        var statuses: [MessageID: MessageStatus] = [:]
        let token = client.outbox.observe { event in
            if case .changed(let message) = event { statuses[message.id] = message.status }
        }
        let messages = client.messages
        let loading = clock.task { _ = try? await messages.messages(in: "c2", before: nil, limit: 50) }
        _ = await clock.run(until: { loading.work.isFinished })
        let zero = try client.outbox.compose(text: "zero", in: "c2")
        await waitUntilSettled(client, backend)
        await clock.advance(by: .seconds(1))
        network.failRate = 1
        let first = try client.outbox.compose(text: "first", in: "c2")
        await waitUntil { client.outbox.pending.first?.status == .failed }
        network.failRate = 0
        await clock.advance(by: .seconds(1))
        let second = try client.outbox.compose(text: "second", in: "c2")
        await waitUntilSettled(client, backend)

        // When Ben reads up to "second" and "first" is sent again, the app hearing of the read before or after
        if !receiptFirst { client.enterBackground() }
        try backend.markReceipt(Receipt(conversationID: "c2", userID: "ben", kind: .read, upTo: second.cursor))
        if receiptFirst { await waitUntilSettled(client, backend) }
        let retrying = clock.task { try? await client.outbox.send(first.id) }
        _ = await clock.run(until: { retrying.work.isFinished })
        client.enterForeground()
        await waitUntilSettled(client, backend)

        // Then all three are read, as the backend reports them; "first" was announced read
        #expect(backend.messagesWithStatuses(in: "c2").suffix(3).map(\.status) == [.read, .read, .read])
        let cached = client.messageCache.messages(in: "c2")
        for message in [zero, first, second] {
            #expect(cached.first { $0.id == message.id }?.status == .read, "\(message.text)")
        }
        #expect(statuses[first.id] == .read)
        token.cancel()
        client.close()
    }

    private func waitUntil(_ condition: () -> Bool) async {
        _ = await clock.run(until: condition, limit: .seconds(600))
    }

    /// Runs the clock until the client's work is done and its feed is caught up and listening.
    private func waitUntilSettled(_ client: CourierClient, _ backend: InMemoryChatBackend) async {
        _ = await clock.run(
            until: {
                guard let sync = client.syncEngine else { return true }
                return !client.isBusy && sync.isLive && sync.cursor == backend.feedEndPosition(for: "me")
                    && sync.receipts.count == 0
            }, limit: .seconds(600))
    }
}
