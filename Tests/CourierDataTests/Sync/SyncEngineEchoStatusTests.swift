import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// The echo of a message whose send's outcome was unknown, which receipts raised meanwhile (found by the simulation's
/// convergence check, seed 3376: the chat showed `sent` for a message the backend reported read).
@MainActor
@Suite struct SyncEngineEchoStatusTests {
    /// A message queued in c2 that an earlier attempt stored at the backend (`sent`) and that the cache holds `read`.
    private func queuedStoredAndRead(_ text: String, world: DemoWorldFixture, client: CourierClient) throws -> Message {
        let message = try client.outbox.compose(text: text, in: "c2")
        var stored = message
        stored.status = .sent
        try world.backend.receive(stored)
        var read = stored
        read.status = .read
        client.messageCache.store([read])
        return message
    }

    @Test("an echo filed sent does not take back the read status the cache holds for a message still in the outbox")
    func anEchoKeepsTheStatusReceiptsRaised() async throws {
        // Given a listening client, offline, holding a queued message that an earlier attempt stored at the backend
        // and that the cache already holds as read (its answer and a receipt came before the outbox forgot it)
        let world = try DemoWorldFixture()
        let client = try world.open()
        await world.waitUntil { client.syncEngine?.isLive == true }
        world.network.setOnline(false)
        let message = try queuedStoredAndRead("stored before, read since", world: world, client: client)
        var shown: [MessageStatus] = []
        let token = client.outbox.observe { event in
            if case .changed(let changed) = event, changed.id == message.id { shown.append(changed.status) }
        }

        // When the device is back online and the feed brings the message's echo, filed sent
        world.network.setOnline(true)
        await world.waitUntil { client.outbox.pending.isEmpty && !client.isBusy }

        // Then screens see it read, as the cache holds it, never sent
        #expect(shown.last == .read)
        #expect(!shown.contains(.sent))
        #expect(client.messageCache.message(message.id, in: "c2")?.status == .read)
        token.cancel()
        client.close()
    }

    @Test("the echo of a message of mine whose outbox copy was deleted shows the status the cache holds, not sent")
    func anUnconfirmedEchoKeepsTheStatusTheCacheHolds() async throws {
        // Given a listening client, offline, whose queued message an earlier attempt stored at the backend (its answer
        // lost), the cache holding it read (a page brought it so), and the user deleting the outbox's copy
        let world = try DemoWorldFixture()
        let client = try world.open()
        let engine = try #require(client.syncEngine)
        await world.waitUntil { engine.isLive }
        world.network.setOnline(false)
        let message = try queuedStoredAndRead("stored, then deleted here", world: world, client: client)
        try client.outbox.delete(message.id)
        var announced: [MessageStatus] = []
        let token = engine.observe { update in
            if case .messages(let messages) = update {
                announced += messages.filter { $0.id == message.id }.map(\.status)
            }
        }

        // When the device is back online and the feed brings the message's echo, filed sent
        world.network.setOnline(true)
        await world.waitUntil { !client.isBusy && engine.isLive }

        // Then screens are told of it read, as the cache holds it (seed 69622)
        #expect(announced == [.read])
        #expect(client.messageCache.message(message.id, in: "c2")?.status == .read)
        token.cancel()
        client.close()
    }
}
