import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// What a receipt raises in the cache: every message of mine it covers, though one of them already stands higher
/// (found by the simulation, seed 43535: a message sent again is answered with the status the backend's markers give
/// it, so it can be `delivered` above older messages still `sent`, and a walk that stopped at it left them `sent`).
@Suite struct MessageCacheRaiseTests {
    private let start = Date(timeIntervalSince1970: 1_767_258_000)

    private func mine(_ index: Int, _ status: MessageStatus) -> Message {
        Message(
            id: MessageID("m\(index)"), conversationID: "c1", senderID: "me", text: "mine \(index)",
            timestamp: start.addingTimeInterval(Double(index)), status: status)
    }

    @Test("a receipt raises my older messages below one already raised, not only those above it")
    func raisesBelowOneAlreadyRaised() throws {
        // Given my messages m1 and m2 sent, m3 delivered (answered so when sent again), m4 sent
        let cache = try MessageCache(storage: InMemoryRecordStorage())
        cache.store([mine(1, .sent), mine(2, .sent), mine(3, .delivered), mine(4, .sent)], arrived: true)

        // When a delivered receipt covers them all
        let upTo = mine(4, .sent).cursor
        let raised = cache.raisedStatuses(in: "c1", from: "me", upTo: upTo, by: .delivered)

        // Then every one not yet delivered is raised, in order: the ones below m3 too
        #expect(raised.map(\.id) == ["m1", "m2", "m4"])
        #expect(raised.allSatisfy { $0.status == .delivered })
    }
}
