import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

/// Deleting a conversation on the data side: everything this device keeps of it goes, durably — a relaunch brings
/// none of it back — and the backend's hide waits in the write queue until it can be delivered.
@MainActor
@Suite struct CourierClientDeletionTests {
    let clock = ManualClock()
    let disk = SimulatedFileSystem()
    let directory = URL(fileURLWithPath: "/app")
    let connectivity = ManualConnectivity(online: false)
    let backend = FakeMessageRepository(clock: ManualClock(), latency: .zero, reply: .asGiven)

    private func open(hidden: HiddenLog = HiddenLog()) throws -> CourierClient {
        try CourierClient(
            directory: directory, currentUser: "me", messages: backend, conversations: FakeConversationRepository(),
            users: FakeUserRepository(), connectivity: connectivity, clock: clock, ids: .seeded(5),
            writeExecutors: [
                CourierClient.hideConversationKind: { write in
                    let id: String = try write.decodePayload()
                    await hidden.add(ConversationID(id))
                }
            ],
            fileSystem: disk)
    }

    private func conversation(_ id: ConversationID) -> Conversation {
        Conversation(id: id, participantIDs: ["me", "ben"], lastActivity: Date(timeIntervalSince1970: 1_000))
    }

    @Test func aDeletedConversationsUnsentMessagesCachesAndListEntryStayGoneAfterARelaunch() async throws {
        // Given, offline, two queued messages in c2 and one in c1, both conversations and c2's page cached
        let client = try open()
        let first = try client.outbox.compose(text: "one", in: "c2")
        let second = try client.outbox.compose(text: "two", in: "c2")
        try client.outbox.compose(text: "keep", in: "c1")
        client.conversationCache.store([conversation("c1"), conversation("c2")])
        let cached = Message(
            id: "old", conversationID: "c2", senderID: "ben", text: "hi", timestamp: Date(timeIntervalSince1970: 900),
            status: .read)
        client.messageCache.store(MessagePage(messages: [cached], hasMore: false), in: "c2")

        // When c2 is deleted, and the app is killed and relaunched
        let discarded = try client.deleteConversation("c2")
        #expect(discarded == [first.id, second.id])
        client.close()
        let hidden = HiddenLog()
        let relaunched = try open(hidden: hidden)

        // Then nothing of c2 comes back: no queued message (so no toast would offer it), no page, no list entry
        #expect(relaunched.outbox.pending.map(\.text) == ["keep"])
        #expect(relaunched.conversationCache.conversation("c2") == nil)
        #expect(relaunched.conversationCache.conversation("c1") != nil)
        #expect(relaunched.messageCache.messages(in: "c2").isEmpty)
        // And the backend's hide waits in the write queue, and goes once online
        #expect(relaunched.writes.allWrites.map(\.kind) == [CourierClient.hideConversationKind])
        connectivity.set(online: true)
        let done = clock.task { await relaunched.idle() }
        _ = await clock.run(until: { done.work.isFinished })
        #expect(await hidden.ids == ["c2"])
        #expect(relaunched.writes.count == 0)
        relaunched.close()
    }
}

/// The conversations the backend was asked to hide.
actor HiddenLog {
    private(set) var ids: [ConversationID] = []
    func add(_ id: ConversationID) { ids.append(id) }
}
