import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// A read receipt outlasts an outage: it is a marker, always safe to send again (found by the simulation's
/// convergence check).
@MainActor
@Suite struct SyncEngineReceiptDeliveryTests {

    @Test("a read receipt is still delivered after an outage of more failed attempts than a write may have")
    func aReceiptOutlastsAnOutage() async throws {
        // Given a listening client, and a backend that fails every request (503) for ten minutes
        let world = try DemoWorldFixture()
        let (clock, backend, network) = (world.clock, world.backend, world.network)
        let client = try world.open()
        _ = await clock.run(until: { client.syncEngine?.isLive == true }, limit: .seconds(60))
        network.failRate = 1
        var attempts = 0
        let token = try #require(client.syncEngine).receipts.observe { event in
            if case .attemptFailed = event { attempts += 1 }
        }

        // When the user reads Ben's conversation during the outage, and the backend recovers
        let newest = try #require(backend.messages(in: "c2").last)
        try #require(client.syncEngine).markRead("c2", upTo: newest.cursor)
        await clock.advance(by: .seconds(600))
        network.failRate = 0
        _ = await clock.run(until: { client.syncEngine?.receipts.count == 0 }, limit: .seconds(600))

        // Then the receipt failed more often than a write may (10 attempts), and still reached the backend
        #expect(attempts > WriteQueueConfiguration.standard.maxAttempts ?? 0)
        #expect(backend.marker(.read, of: "me", in: "c2") == newest.id)
        token.cancel()
        client.close()
    }
}
