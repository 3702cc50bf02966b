import CourierData
import CourierDomain
import CourierFakes
import CourierTestSupport
import Foundation
import Testing

@MainActor
@Suite("DemoData")
struct DemoDataTests {
    private let data = DemoData.make(seed: 42, now: BackendFixtures.now)

    @Test("120 conversations: c1 with Ana holds 1,000 messages, c2 with Ben 3, the others one or two")
    func shape() throws {
        #expect(data.signedInUser == "me")
        #expect(data.conversations.map(\.id) == (1...120).map { ConversationID("c\($0)") })
        let counts = Dictionary(grouping: data.messages, by: \.conversationID).mapValues(\.count)
        #expect(counts["c1"] == 1_000)
        #expect(counts["c2"] == 3)
        #expect((3...120).allSatisfy { (1...2).contains(counts[ConversationID("c\($0)")] ?? 0) })
        let names = Dictionary(uniqueKeysWithValues: data.users.map { ($0.id, $0.displayName) })
        #expect(names["ana"] == "Ana" && names["ben"] == "Ben" && names["chloe"] == "Chloe" && names["me"] != nil)
        #expect(data.conversations[0].participantIDs == ["me", "ana"])
        #expect(data.conversations[1].participantIDs == ["me", "ben"])
        #expect(data.conversations[2].participantIDs == ["me", "chloe"])
        #expect(Set(data.users.map(\.id)).count == data.users.count)
        #expect(Set(data.messages.map(\.id)).count == data.messages.count)
    }

    @Test("the list has a clear most-recent-first order in the past, with previews and some unread counts")
    func activityOrder() throws {
        let activity = data.conversations.map(\.lastActivity)
        #expect(zip(activity, activity.dropFirst()).allSatisfy { $0 > $1 })
        #expect(activity.allSatisfy { $0 < BackendFixtures.now })
        #expect(data.conversations.allSatisfy { $0.lastMessage?.timestamp == $0.lastActivity })
        #expect(data.conversations.contains { $0.unreadCount > 0 })
        #expect(data.conversations.contains { $0.unreadCount == 0 })
    }

    @Test("the same seed gives the same data; another seed gives other data")
    func deterministic() {
        #expect(DemoData.make(seed: 42, now: BackendFixtures.now) == data)
        #expect(DemoData.make(seed: 43, now: BackendFixtures.now) != data)
    }

    @Test("a backend seeded with it serves the same counts, order and previews")
    func backendFromDemoData() throws {
        let backend = try InMemoryChatBackend(seed: data, journal: InMemoryBackendJournal())
        #expect(backend.messageCount(in: "c1") == 1_000)
        #expect(backend.messageCount(in: "c2") == 3)
        #expect(backend.conversationIDs == data.conversations.map(\.id))
        #expect(backend.conversation("c7") == data.conversations[6])
        #expect(backend.messages(in: "c1") == data.messages.filter { $0.conversationID == "c1" })
    }
}
