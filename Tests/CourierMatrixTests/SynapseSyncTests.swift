import Testing

/// What `/sync` answers a client that was away, or waiting: the gaps, back-fill and receipts Courier's feed must
/// turn into its own events.
@Suite struct SynapseSyncTests {
    @Test func aLimitedTimelineLeavesAGapThatMessagesBackFillsExactly() async throws {
        // Given me synced, then away while Ben sends fifteen messages
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let since = try await me.sync(timelineLimit: 10).nextBatch
        for index in 1...15 { _ = try await ben.send(room, "m\(index)", txnID: "t\(index)") }

        // When I sync with a timeline limit of ten
        let synced = try #require(SyncRoom(room, in: try await me.sync(since: since, timelineLimit: 10).json))

        // Then I get the ten newest and a gap flag (the rest is not paged: it is left out)
        #expect(synced.limited)
        #expect(synced.messages.map(\.body) == (6...15).map { "m\($0)" })
        // and /messages from the timeline's start back to my old token brings exactly the five missing
        let prevBatch = try #require(synced.prevBatch)
        let gap = try await me.messages(room, from: prevBatch, to: since)
        #expect(gap.map(\.body) == (1...5).map { "m\($0)" })
    }

    @Test func aSyncWithinTheLimitIsNotLimited() async throws {
        // Given me synced, then Ben sends three messages
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let since = try await me.sync(timelineLimit: 10).nextBatch
        for index in 1...3 { _ = try await ben.send(room, "m\(index)", txnID: "t\(index)") }

        // When I sync
        let synced = try #require(SyncRoom(room, in: try await me.sync(since: since, timelineLimit: 10).json))

        // Then all three arrive, with no gap
        #expect(!synced.limited)
        #expect(synced.messages.map(\.body) == ["m1", "m2", "m3"])
    }

    @Test func aHeldSyncAnswersWithTheNewMessage() async throws {
        // Given me synced and waiting (up to 30 s) for anything new
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let since = try await me.sync().nextBatch
        let waiting = Task { () async throws -> (nextBatch: String, bodies: [String]) in
            let answer = try await me.sync(since: since, timeout: 30_000)
            return (answer.nextBatch, SyncRoom(room, in: answer.json)?.messages.map(\.body) ?? [])
        }

        // When Ben sends a message
        _ = try await ben.send(room, "are you there?", txnID: "t1")

        // Then the held sync answers with it, and a new token
        let answer = try await waiting.value
        #expect(answer.bodies == ["are you there?"])
        #expect(answer.nextBatch != since)
    }

    @Test func aReadReceiptReachesTheSenderAndClearsTheUnreadCount() async throws {
        // Given three messages from Ben that I have not read
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        var last = ""
        for index in 1...3 { last = try await ben.send(room, "m\(index)", txnID: "t\(index)") }
        let mine = try await me.sync()
        #expect(SyncRoom(room, in: mine.json)?.notificationCount == 3)
        let bensSince = try await ben.sync().nextBatch

        // When I read up to the last
        try await me.read(room, last)

        // Then Ben's feed carries my receipt on that event, and my unread count is zero
        let bens = try #require(SyncRoom(room, in: try await ben.sync(since: bensSince, timeout: 10_000).json))
        #expect(bens.receipts[last]?["m.read"]?[me.userID] != nil)
        // (an incremental sync: an identical full sync within two minutes is answered from the server's cache)
        let myNext = try await me.sync(since: mine.nextBatch, timeout: 10_000)
        #expect(SyncRoom(room, in: myNext.json)?.notificationCount == 0)
    }

    @Test func thereIsNoDeliveredReceipt() async throws {
        // Given a message from Ben
        let (me, ben, room) = try await SynapseServer.shared().conversation()
        let event = try await ben.send(room, "hello", txnID: "t1")

        // When I try to mark it delivered with a receipt type of my own
        let refusal = await #expect(throws: MatrixHTTPError.self) {
            _ = try await me.request("POST", ["rooms", room, "receipt", "courier.delivered", event], body: [:])
        }

        // Then the server refuses it: Matrix knows read receipts only
        #expect(refusal?.status == 400)
    }
}
