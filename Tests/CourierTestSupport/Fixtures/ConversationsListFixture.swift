import CourierDomain
import Foundation

/// Builders for the conversation list's tests.
public enum ConversationsListFixture {
    /// The signed-in user.
    public static let me: UserID = "me"

    /// A sent message of `conversation`.
    public static func message(
        _ id: String, in conversation: ConversationID, from sender: UserID = "ana", text: String = "hi", at date: Date,
        media: MediaAttachment? = nil
    ) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: sender, text: text, timestamp: date,
            status: .sent, media: media)
    }

    /// `count` one-to-one conversations `c1`…, one minute of activity apart, `c1` the most recent (at `newest`),
    /// each with user `u<i>` and one message "hello <i>".
    public static func conversations(_ count: Int, newest: Date) -> [Conversation] {
        (1...max(1, count)).prefix(count).map { index in
            let id = ConversationID("c\(index)")
            let at = newest.addingTimeInterval(-60 * Double(index - 1))
            return Conversation(
                id: id, participantIDs: [me, UserID("u\(index)")],
                lastMessage: message("m\(index)", in: id, from: UserID("u\(index)"), text: "hello \(index)", at: at),
                lastActivity: at, unreadCount: index % 3)
        }
    }

    /// `conversation` as the sync writes it once `message` is its newest: previewing it, active at its time, with
    /// `unread` unread.
    public static func row(_ conversation: Conversation, last message: Message, unread: Int) -> Conversation {
        var row = conversation
        row.lastMessage = message
        row.lastActivity = max(conversation.lastActivity, message.timestamp)
        row.unreadCount = unread
        return row
    }

    /// Users `u1`… named "User 1"….
    public static func users(_ count: Int) -> [User] {
        (1...max(1, count)).prefix(count).map { User(id: UserID("u\($0)"), displayName: "User \($0)") }
    }
}
