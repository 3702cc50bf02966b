import CourierData
import CourierDomain
import CourierFakes
import Foundation

/// Small, hand-made data for the backend, network, outbox and retry tests.
public enum BackendFixtures {
    /// 2026-01-01T09:00:00Z, the manual clock's default start.
    public static let now = Date(timeIntervalSince1970: 1_767_258_000)

    /// `me` with two conversations: `c1` with Ana (no messages) and `c2` with Ben (no messages).
    public static func twoConversations() -> DemoData {
        DemoData(
            signedInUser: "me",
            users: [
                User(id: "me", displayName: "Me"), User(id: "ana", displayName: "Ana"),
                User(id: "ben", displayName: "Ben"),
            ],
            conversations: [
                Conversation(id: "c1", participantIDs: ["me", "ana"], lastActivity: now.addingTimeInterval(-60)),
                Conversation(id: "c2", participantIDs: ["me", "ben"], lastActivity: now.addingTimeInterval(-3_600)),
            ],
            messages: [])
    }

    /// `twoConversations()` with a group `g1` of `me`, Ana and Ben (no messages, oldest activity), and Cy, who is in
    /// no conversation.
    public static func withGroup() -> DemoData {
        var data = twoConversations()
        data.users.append(User(id: "cy", displayName: "Cy"))
        data.conversations.append(
            Conversation(id: "g1", participantIDs: ["me", "ana", "ben"], lastActivity: now.addingTimeInterval(-7_200)))
        return data
    }

    /// A message from `me` composed `offset` seconds after `now`.
    public static func message(
        _ id: String, in conversation: ConversationID = "c1", at offset: TimeInterval = 0, text: String? = nil,
        from sender: UserID = "me"
    ) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: sender, text: text ?? "text of \(id)",
            timestamp: now.addingTimeInterval(offset), status: .sending)
    }

    /// A backend over `data` (by default `twoConversations()`) with an in-memory journal.
    @MainActor
    public static func backend(
        _ data: DemoData = twoConversations(), journal: any BackendJournal = InMemoryBackendJournal()
    ) throws -> InMemoryChatBackend {
        try InMemoryChatBackend(seed: data, journal: journal)
    }

    /// A backend over `twoConversations()` where `c1` holds `count` messages from `me`, `m0` to `mN-1`, a second
    /// apart.
    @MainActor
    public static func backend(messagesInC1 count: Int) throws -> InMemoryChatBackend {
        let backend = try backend()
        for index in 0..<count { try backend.send(message("m\(index)", at: Double(index))) }
        return backend
    }
}
