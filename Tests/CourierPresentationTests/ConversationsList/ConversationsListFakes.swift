import CourierDomain
import Foundation

/// A backend's conversation list: pages by cursor, most recent activity first, each answer after `latency` of
/// clock time. Counts requests; `failure` makes the next requests throw.
final class ConversationsListFakeRepository: ConversationRepository, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: ManualClock
    private let latency: Duration
    private var all: [Conversation]
    private var requests = 0
    private var failing: DeliveryError?

    init(_ conversations: [Conversation], clock: ManualClock, latency: Duration = .seconds(1)) {
        all = conversations.sorted { ($0.lastActivity, $0.id) > ($1.lastActivity, $1.id) }
        self.clock = clock
        self.latency = latency
    }

    var requestCount: Int { lock.withLock { requests } }

    func fail(with error: DeliveryError?) { lock.withLock { failing = error } }

    func conversations(of user: UserID, after cursor: ConversationCursor?, limit: Int) async throws
        -> ConversationPage
    {
        // A bad limit is a typed error, as the real backend answers, not a trap that ends the whole test run.
        guard limit > 0 else { throw DeliveryError.validation(reason: "a page holds at least one conversation") }
        let (conversations, error) = lock.withLock {
            requests += 1
            return (all, failing)
        }
        try await clock.sleep(for: latency)
        if let error { throw error }
        let rest = cursor.map { cursor in
            conversations.filter { ($0.lastActivity, $0.id) < (cursor.lastActivity, cursor.id) }
        } ?? conversations
        return ConversationPage(conversations: Array(rest.prefix(limit)), hasMore: rest.count > limit)
    }
}

/// A user directory that answers from a fixed table at once, counts the ids it is asked for, and lets a test
/// announce a profile change.
@MainActor
final class ConversationsListFakeDirectory: UserDirectory {
    private let observers = ObserverList<User>()
    private var table: [UserID: User]
    private(set) var lookups: [[UserID]] = []

    init(_ users: [User]) { table = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) }) }

    var hasObservers: Bool { !observers.isEmpty }

    func change(_ user: User) {
        table[user.id] = user
        observers.notify(user)
    }

    func users(_ ids: [UserID]) async -> [UserID: User] {
        lookups.append(ids)
        return table.filter { ids.contains($0.key) }
    }

    func presence(_ ids: [UserID]) async -> [UserID: Presence] { [:] }

    func observe(_ observer: @escaping @MainActor (User) -> Void) -> ObservationToken { observers.add(observer) }
}

/// Builders for the list's tests.
enum ConversationsListFixture {
    static let me: UserID = "me"

    static func message(
        _ id: String, in conversation: ConversationID, from sender: UserID = "ana", text: String = "hi", at date: Date,
        media: MediaAttachment? = nil
    ) -> Message {
        Message(
            id: MessageID(id), conversationID: conversation, senderID: sender, text: text, timestamp: date,
            status: .sent, media: media)
    }

    /// `count` one-to-one conversations `c1`…, one minute of activity apart, `c1` the most recent (at `newest`),
    /// each with user `u<i>` and one message "hello <i>".
    static func conversations(_ count: Int, newest: Date) -> [Conversation] {
        (1...max(1, count)).prefix(count).map { index in
            let id = ConversationID("c\(index)")
            let at = newest.addingTimeInterval(-60 * Double(index - 1))
            return Conversation(
                id: id, participantIDs: [me, UserID("u\(index)")],
                lastMessage: message("m\(index)", in: id, from: UserID("u\(index)"), text: "hello \(index)", at: at),
                lastActivity: at, unreadCount: index % 3)
        }
    }

    static func users(_ count: Int) -> [User] {
        (1...max(1, count)).prefix(count).map { User(id: UserID("u\($0)"), displayName: "User \($0)") }
    }
}
