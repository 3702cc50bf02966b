import CourierData
import CourierDomain
import CourierTestSupport
import Foundation
import Testing

/// Which of this device's messages the cache holds from their send's answer, their echo not come yet: what the sync
/// engine asks before it counts a row's unread messages from the cache (the feed has not reached such a message, so
/// others' messages filed before it may be missing). Kept across launches (found by the simulation, seed 5646: a
/// relaunch between a send and a list page forgot it).
@Suite struct MessageCacheEchoTests {
    private let start = Date(timeIntervalSince1970: 1_767_258_000)

    private func mine(_ index: Int) -> Message {
        Message(
            id: MessageID("m\(index)"), conversationID: "c1", senderID: "me", text: "mine \(index)",
            timestamp: start.addingTimeInterval(Double(index)), status: .sent)
    }

    @Test("a message kept from its send's answer awaits its echo, after a relaunch too, until the echo comes")
    func anAnsweredMessageAwaitsItsEchoAcrossLaunches() throws {
        // Given two messages kept as their sends were answered, one stored as the feed brought it
        let storage = InMemoryRecordStorage()
        let cache = try MessageCache(storage: storage)
        cache.keepDelivered([mine(1), mine(2)])
        cache.store([mine(3)], arrived: true)
        #expect(cache.awaitsEcho("m1", in: "c1"))
        #expect(cache.awaitsEcho("m2", in: "c1"))
        #expect(!cache.awaitsEcho("m3", in: "c1"))

        // When the echo of the first comes, and the app is launched again
        cache.echoesCame([(id: "m1", conversation: "c1")])
        let relaunched = try MessageCache(storage: InMemoryRecordStorage(records: storage.records))

        // Then only the second still awaits its echo
        #expect(!relaunched.awaitsEcho("m1", in: "c1"))
        #expect(relaunched.awaitsEcho("m2", in: "c1"))
        #expect(relaunched.allAwaitedEchoes().map(\.id) == ["m2"])
    }

    @Test("compacting the log keeps which messages await their echo; a removed one awaits nothing")
    func compactionKeepsAwaitedEchoes() throws {
        // Given a message awaiting its echo, another removed (deleted by its sender), and a log compacted since
        let storage = InMemoryRecordStorage()
        let cache = try MessageCache(storage: storage)
        cache.keepDelivered([mine(1), mine(2)])
        cache.remove("m2", in: "c1")
        for _ in 0..<600 { cache.store([mine(1)]) }
        #expect(storage.compactions >= 1)

        // When the app is launched again
        let relaunched = try MessageCache(storage: InMemoryRecordStorage(records: storage.records))

        // Then the first still awaits its echo, the removed one nothing
        #expect(relaunched.awaitsEcho("m1", in: "c1"))
        #expect(!relaunched.awaitsEcho("m2", in: "c1"))
    }
}
