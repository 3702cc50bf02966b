import CourierDomain
import Foundation

/// An app's own backend, as an adopter would write it: messages in a dictionary keyed by id (so a resend is a
/// no-op), in arrival order. `send` answers with the message exactly as given — status `queued` or `sending` —
/// which is allowed: a send that returns means stored.
final class DictionaryBackend: MessageRepository, ConversationRepository, UserRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var byID: [MessageID: Message] = [:]
    private var arrivals: [MessageID] = []
    private var sendCounts: [MessageID: Int] = [:]
    private var names: [UserID: String] = [:]

    /// Every message stored, in arrival order.
    var stored: [Message] { lock.withLock { arrivals.compactMap { byID[$0] } } }
    /// How many times each id was sent (a resend counts; it stores nothing new).
    var sends: [MessageID: Int] { lock.withLock { sendCounts } }

    func send(_ message: Message) async throws(DeliveryError) -> Message {
        lock.withLock {
            sendCounts[message.id, default: 0] += 1
            if byID[message.id] == nil {
                byID[message.id] = message
                arrivals.append(message.id)
            }
        }
        return message
    }

    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        let all = stored.filter { message in
            message.conversationID == conversation && (cursor.map { message.cursor < $0 } ?? true)
        }
        return MessagePage(messages: Array(all.suffix(limit)), hasMore: all.count > limit)
    }

    func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int)
        async throws(DeliveryError) -> ConversationPage
    {
        ConversationPage(conversations: [], hasMore: false)
    }

    func users(_ ids: [UserID]) async throws(DeliveryError) -> [User] {
        lock.withLock { ids.map { User(id: $0, displayName: names[$0] ?? $0.rawValue) } }
    }

    /// Changes a user's display name (what the app's write executor asks for).
    func rename(_ user: UserID, to name: String) { lock.withLock { names[user] = name } }

    func presence(_ ids: [UserID]) async throws(DeliveryError) -> [Presence] {
        ids.map { Presence(userID: $0, isOnline: true) }
    }
}
