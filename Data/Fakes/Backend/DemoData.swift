import CourierData
import CourierDemoWorld
import CourierDomain
import Foundation

/// The simulated server's starting content: the signed-in user, the people they talk to, 120 conversations and
/// their messages (docs/driver.md, "Demo data").
public struct DemoData: Hashable, Sendable {
    /// The user the client is signed in as (`me`).
    public var signedInUser: UserID
    /// Every user, the signed-in one first.
    public var users: [User]
    /// Every conversation, with its preview, activity time and unread count filled in.
    public var conversations: [Conversation]
    /// Every message, each conversation's in compose order.
    public var messages: [Message]
    /// Who is online, for the users that have a presence record.
    public var presence: [Presence]

    /// Creates demo data from its parts.
    public init(
        signedInUser: UserID, users: [User], conversations: [Conversation], messages: [Message],
        presence: [Presence] = []
    ) {
        self.signedInUser = signedInUser
        self.users = users
        self.conversations = conversations
        self.messages = messages
        self.presence = presence
    }

    // MARK: - The embedded default

    /// How many conversations `make` creates: three pages of 50 (the last one holds 20).
    public static let conversationCount = DemoRoster.conversationCount
    /// How many messages `c1` (with Ana) holds: twenty pages of 50.
    public static let anaMessageCount = 1_000

    /// The embedded default, the same for the same seed: signed in as `me`; conversations `c1` … `c120`, each with
    /// one other user (`c1` Ana with 1,000 messages, `c2` Ben with 3, `c3` Chloe, the others one or two each);
    /// activity spread over the past weeks, `c1` most recent, so the list has a clear order; some unread counts.
    public static func make(seed: UInt64, now: Date) -> DemoData {
        var generator = DemoDataGenerator(seed: seed, now: now)
        return generator.make()
    }

    /// The participants `make` gives the conversation `id`, whatever the seed — or nil when `make` makes no such
    /// conversation. Read from the id alone, without making the messages: what a one-shot send checks its
    /// conversation against.
    public static func participants(of id: ConversationID) -> [UserID]? { DemoRoster.participants(of: id) }
}

/// Builds `DemoData.make`'s content from one seeded generator, so the same seed gives the same data.
private struct DemoDataGenerator {
    static let me = DemoRoster.me
    private var random: SeededRandom
    private let now: Date
    private var messages: [Message] = []

    init(seed: UInt64, now: Date) {
        random = SeededRandom(seed: seed)
        self.now = now
    }

    mutating func make() -> DemoData {
        var users = [User(id: Self.me, displayName: "Me")]
        var conversations: [Conversation] = []
        var presence: [Presence] = []
        var lastActivity = now.addingTimeInterval(-60)
        for index in 0..<DemoData.conversationCount {
            let name = DemoRoster.contactNames[index]
            let other = UserID(name.lowercased())
            users.append(User(id: other, displayName: name))
            if index > 0 { lastActivity = lastActivity.addingTimeInterval(-gap(afterConversation: index)) }
            let id = ConversationID("c\(index + 1)")
            let thread = makeThread(index: index, in: id, with: other, endingAt: lastActivity)
            messages += thread
            conversations.append(
                Conversation(
                    id: id, participantIDs: [Self.me, other], lastMessage: thread.last, lastActivity: lastActivity,
                    unreadCount: unreadCount(of: thread, from: other)))
            let online = random.nextUnit() < 0.2
            let lastSeen = now.addingTimeInterval(online ? 0 : -random.nextUnit() * 3 * 86_400)
            presence.append(Presence(userID: other, isOnline: online, lastSeen: lastSeen))
        }
        return DemoData(
            signedInUser: Self.me, users: users, conversations: conversations, messages: messages, presence: presence)
    }

    // MARK: - Pieces

    /// Time between one conversation's latest activity and the next one's: minutes at the top of the list, hours
    /// further down, so relative times read "Now", "25m ago", "3h ago", "Yesterday" and dates.
    private mutating func gap(afterConversation index: Int) -> TimeInterval {
        switch index {
        case 1: 24 * 60
        case 2: 150 * 60
        default: (4 + random.nextUnit() * 12) * 3_600
        }
    }

    private mutating func makeThread(index: Int, in id: ConversationID, with other: UserID, endingAt end: Date)
        -> [Message]
    {
        let lines: [(fromMe: Bool, text: String)]
        switch index {
        case 0: lines = (0..<DemoData.anaMessageCount).map { _ in (random.nextUnit() < 0.5, phrase()) }
        case 1: lines = DemoData.benDialogue
        default: lines = (0..<(random.nextUnit() < 0.5 ? 1 : 2)).map { _ in (random.nextUnit() < 0.4, phrase()) }
        }
        // Walk back from the newest line, a few minutes apart, then emit in compose order.
        var timestamps: [Date] = [end]
        for _ in 1..<lines.count { timestamps.append(timestamps[timestamps.count - 1].addingTimeInterval(-spacing())) }
        timestamps.reverse()
        return lines.enumerated().map { offset, line in
            Message(
                id: MessageID("\(id.rawValue)-m\(Self.padded(offset + 1))"), conversationID: id,
                senderID: line.fromMe ? Self.me : other, text: line.text, timestamp: timestamps[offset], status: .sent)
        }
    }

    /// Messages from `other` at the end of the thread, for about a third of the conversations.
    private mutating func unreadCount(of thread: [Message], from other: UserID) -> Int {
        guard random.nextUnit() < 0.35 else { return 0 }
        return thread.reversed().prefix { $0.senderID == other }.count
    }

    private mutating func phrase() -> String {
        DemoData.phrases[Int(random.nextUnit() * Double(DemoData.phrases.count))]
    }

    private mutating func spacing() -> TimeInterval { (2 + random.nextUnit() * 18) * 60 }

    private static func padded(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
