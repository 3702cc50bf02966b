import CourierTestSupport
import Testing

/// What survives a homeserver's crash and what its transaction window forgets: each test has a server of its own,
/// since it kills or restarts it.
@Suite(.serialized, .removesTemporaryDirectories) struct SynapseRestartTests {
    @Test func aSinceTokenAndTheTransactionsSurviveAKill() async throws {
        // Given me synced, and three messages from Ben
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let since = try await me.sync().nextBatch
        var sent: [String] = []
        for index in 1...3 { sent.append(try await ben.send(room, "m\(index)", txnID: "t\(index)")) }

        // When the server is killed (SIGKILL) and started again
        try await server.kill()
        try await server.restart()

        // Then my old token still works and brings the three messages
        let synced = try #require(SyncRoom(room, in: try await me.sync(since: since).json))
        #expect(synced.messages.map(\.eventID) == sent)
        // and Ben's resend of an acknowledged message is recognised: no duplicate
        #expect(try await ben.send(room, "m2", txnID: "t2") == sent[1])
        #expect(try await me.messages(room).map(\.body) == ["m1", "m2", "m3"])
    }

    @Test func afterTheTransactionWindowTheSameTransactionIsStoredTwice() async throws {
        // Given Ben's message, recognised when resent
        let server = try await SynapseServer.dedicated()
        let (me, ben, room) = try await server.conversation()
        let first = try await ben.send(room, "hello", txnID: "t1")
        #expect(try await ben.send(room, "hello", txnID: "t1") == first)

        // When the server forgets its transaction ids, as 24 hours later
        try await server.forgetTransactionIDs()

        // Then the same resend is a new message: I read it twice
        let second = try await ben.send(room, "hello", txnID: "t1")
        #expect(second != first)
        #expect(try await me.messages(room).map(\.body) == ["hello", "hello"])
    }
}
