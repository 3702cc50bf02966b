import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Reading a chat writes two things: the read receipt for the backend and the row's unread count. A kill between
/// the two must never leave a row that says "read" while no receipt is on its way: the backend would go on counting
/// the messages unread, and the list would never say so again (found by `courier-sim`, seeds 336 and 696).
/// The time limit only stops a mutant that loops for ever: under the whole suite's parallel run on two cores these
/// tests wait their turns on the main actor for over a minute (they take about 3 s alone).
@MainActor
@Suite(.timeLimit(.minutes(3))) struct SyncEngineReadCrashTests {
    @Test(arguments: 0..<8)
    func aPowerCutAtAnyPointOfAReadLeavesNoRowReadWithoutItsReceipt(operations: Int) async throws {
        // Given Ben's message unread in c2, the device offline (the receipt must wait on disk)
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.feed.push(.message(fixture.message("unread")))
        await fixture.settle()
        #expect(fixture.cached("c2")?.unreadCount == 1)
        fixture.connectivity.set(online: false)
        let cursor = try #require(client.messageCache.messages(in: "c2").last).cursor

        // When I read c2 and the power goes after `operations` writes, and the app opens again
        fixture.disk.cutPower(afterOperations: operations)
        try fixture.engine.markRead("c2", upTo: cursor)
        _ = fixture.disk.crash()
        let reopened = try await fixture.open(loadingList: false)

        // Then either the row still counts the message, or a read receipt for c2 waits to go out
        let unread = try #require(fixture.cached("c2")).unreadCount
        let receiptWaits = reopened.syncEngine?.readMarker(for: "c2") != nil  // restored from the waiting receipts
        #expect(unread == 1 || receiptWaits, "after \(operations) operations: the row says read, no receipt waits")
        fixture.close()
    }

    @Test(arguments: 0..<10)
    func aPowerCutWhileAMessageArrivesIntoTheChatOnScreenLeavesNoRowReadWithoutItsReceipt(operations: Int)
        async throws
    {
        // Given Ben's chat on screen
        let fixture = SyncFixture()
        let client = try await fixture.open()
        let watching = client.sync.watch("c2")

        // When his message arrives (read as it comes: the chat shows it) and the power goes after `operations`
        // writes, and the app opens again
        fixture.disk.cutPower(afterOperations: operations)
        fixture.feed.push(.message(fixture.message("seen as it came")))
        await fixture.clock.advance(by: .seconds(1))  // the feed's answer comes, is applied, or the disk dies
        _ = fixture.disk.crash()
        withExtendedLifetime(watching) {}
        let reopened = try await fixture.open(loadingList: false)

        // Then the row counts it unread, or never held it, or a read receipt for it waits to go out
        let row = fixture.cached("c2")
        let held = row?.lastMessage?.id == "seen as it came"
        let receiptWaits = reopened.syncEngine?.readMarker(for: "c2") != nil
        #expect(!held || row?.unreadCount == 1 || receiptWaits, "after \(operations) operations")
        fixture.close()
    }

    @Test func aReceiptTheDiskWillNotLetGoOfIsNeverDeliveredInATightLoop() async throws {
        // Given Ben's message unread, and a disk that dies right after my read's receipt is queued
        let fixture = SyncFixture()
        let client = try await fixture.open()
        fixture.feed.push(.message(fixture.message("unread")))
        await fixture.settle()
        let cursor = try #require(client.messageCache.messages(in: "c2").last).cursor
        fixture.connectivity.set(online: false)
        try fixture.engine.markRead("c2", upTo: cursor)
        fixture.disk.cutPower(afterOperations: 0)

        // When the device is online for a minute: the receipt reaches the backend, its removal is refused
        fixture.connectivity.set(online: true)
        await fixture.clock.advance(by: .seconds(60))

        // Then it was delivered a handful of times (the queue's own backoff), never in a loop
        #expect(!fixture.feed.marks.isEmpty)
        #expect(fixture.feed.marks.count < 20, "\(fixture.feed.marks.count) deliveries in a minute")
        _ = fixture.disk.crash()
        fixture.close()
    }
}
