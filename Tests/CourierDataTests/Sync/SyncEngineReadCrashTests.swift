import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Reading a chat writes two things: the read receipt for the backend and the row's unread count. A kill between
/// the two must never leave a row that says "read" while no receipt is on its way: the backend would go on counting
/// the messages unread, and the list would never say so again (found by `courier-sim`, seeds 336 and 696).
@MainActor
@Suite struct SyncEngineReadCrashTests {
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
}
