import Foundation
import Testing

/// A room has one order at the homeserver, and every member reads it: what Courier shows must not contradict it.
@Suite struct SynapseOrderTests {
    @Test func twoPeopleWritingAtOnceReadTheSameConversation() async throws {
        // Given me and Ben in a room of their own
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()

        // When both write ten messages at the same time, each one after the other
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, peer) in [("me", me), ("ben", ben)] {
                group.addTask {
                    for index in 0..<10 { _ = try await peer.send(room, "\(name) \(index)", txnID: "t\(index)") }
                }
            }
            try await group.waitForAll()
        }

        // Then both read the same twenty messages in the same order, each person's in the order they were sent.
        // (On PostgreSQL, history read right after concurrent sends may lag by the newest few events — Synapse's
        // stream position waits for every earlier write to finish — so it is read again, a bounded number of times.)
        var mine = try await me.messages(room)
        for _ in 0..<50 where mine.count < 20 {
            try await Task.sleep(for: .milliseconds(100))
            mine = try await me.messages(room)
        }
        let bens = try await ben.messages(room)
        #expect(mine.count == 20)
        #expect(mine.map(\.eventID) == bens.map(\.eventID))
        #expect(mine.filter { $0.sender == me.userID }.map(\.body) == (0..<10).map { "me \($0)" })
        #expect(mine.filter { $0.sender == ben.userID }.map(\.body) == (0..<10).map { "ben \($0)" })
        // and the live feed (a full /sync) gives the history's order too
        let synced = try await ben.sync(timelineLimit: 50)
        #expect(SyncRoom(room, in: synced.json)?.messages.map(\.eventID) == mine.map(\.eventID))
    }

    @Test func theServerStampsItsOwnClockAndKeepsExtraContent() async throws {
        // Given a message claiming an old timestamp and carrying Courier's own keys
        let server = try await SynapseServer.shared()
        let (me, ben, room) = try await server.conversation()
        let before = Int64(Date().timeIntervalSince1970 * 1_000)

        // When Ben sends it
        _ = try await ben.send(
            room, "late", txnID: "t1", extra: ["origin_server_ts": 1_000, "courier.id": "m-1", "courier.ts": 1_000])

        // Then I read it stamped by the server's clock, the extra keys kept verbatim
        let message = try #require(try await me.messages(room).first)
        #expect(message.originServerTS >= before - 5_000)
        #expect(message.content["courier.id"] as? String == "m-1")
        #expect((message.content["courier.ts"] as? NSNumber)?.intValue == 1_000)
    }
}
