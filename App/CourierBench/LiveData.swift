import CourierDomain
import CourierFakes
import Foundation

/// The conversations `courier-bench live` runs on, and the messages peers send into them: made from a seed, the same
/// in every run, signed in as `me`.
enum LiveData {
    static let me: UserID = "me"
    /// The peers of the catch-up, one conversation each.
    static let peers: [UserID] = ["ana", "ben", "chloe", "dan"]
    /// The open chat of the incoming-message measurement (with Ana).
    static let chat: ConversationID = "chat"
    /// What peers write, from a fixed pool: the backend holds 100,000 messages in one run, and the text a message
    /// carries does not change what applying it costs.
    static let phrases = [
        "Are we still on for tomorrow?", "I pushed the fix — can you take a look when you have a minute?",
        "Running ten minutes late, sorry!", "Did you see the platform change for the 8:40?",
        "Sounds good to me.", "Can you send me the slides from this morning?", "Lunch at the usual place?",
        "The build is green again.", "Thanks, that helped a lot.", "Let's move the call to Thursday.",
    ]

    /// The catch-up's conversations: one with each peer, three messages each, an hour old.
    static func catchUp(now: Date) -> DemoData {
        let conversations = catchUpConversations
        var messages: [Message] = []
        for (conversation, peer) in conversations {
            messages += (0..<3).map { index in
                Message(
                    id: MessageID("\(conversation.rawValue)-seed-\(index)"), conversationID: conversation,
                    senderID: index.isMultiple(of: 2) ? peer : me, text: phrases[index],
                    timestamp: now.addingTimeInterval(Double(index - 3) * 1_200), status: .sent)
            }
        }
        return DemoData(
            signedInUser: me,
            users: [User(id: me, displayName: "Me")] + peers.map { User(id: $0, displayName: $0.rawValue.capitalized) },
            conversations: conversations.map { conversation, peer in
                Conversation(
                    id: conversation, participantIDs: [me, peer], lastActivity: now.addingTimeInterval(-3_600))
            },
            messages: messages)
    }

    /// One chat with Ana holding `size` messages, one every 30 s up to a minute ago, a third of them the user's.
    static func chat(size: Int, now: Date) -> DemoData {
        let ids = IDGenerator.seeded(UInt64(size))
        let messages = (0..<size).map { index in
            Message(
                id: ids.next(), conversationID: chat, senderID: index % 3 == 0 ? me : "ana",
                text: phrases[index % phrases.count], timestamp: now.addingTimeInterval(Double(index - size) * 30 - 60),
                status: .sent)
        }
        return DemoData(
            signedInUser: me, users: [User(id: me, displayName: "Me"), User(id: "ana", displayName: "Ana")],
            conversations: [
                Conversation(id: chat, participantIDs: [me, "ana"], lastActivity: now.addingTimeInterval(-60))
            ],
            messages: messages)
    }

    /// The demo's 120 conversations (docs/driver.md, "Demo data") with the chat of `size` added.
    static func walk(chatSize size: Int, now: Date) -> DemoData {
        var data = DemoData.make(seed: 1, now: now)
        let big = chat(size: size, now: now)
        data.conversations += big.conversations
        data.messages += big.messages
        return data
    }

    /// The `index`th message a peer sends while the user is away: the peers take turns, one conversation each.
    static func peerMessage(_ index: Int, id: MessageID, in conversations: [(ConversationID, UserID)], at time: Date)
        -> Message
    {
        let (conversation, peer) = conversations[index % conversations.count]
        return Message(
            id: id, conversationID: conversation, senderID: peer, text: phrases[index % phrases.count],
            timestamp: time, status: .sent)
    }

    /// The catch-up's conversations (`catchUp(now:)`), each with its peer.
    static var catchUpConversations: [(ConversationID, UserID)] {
        peers.enumerated().map { (ConversationID("c\($0.offset + 1)"), $0.element) }
    }

    /// The peers of `catchUp(now:)` send `count` messages in turn, a millisecond apart, the same ones for the same
    /// count; returns each conversation's newest.
    @MainActor
    static func peersSend(_ count: Int, to backend: InMemoryChatBackend) throws -> [Message] {
        let ids = IDGenerator.seeded(UInt64(1_000 + count))
        let start = Date(timeIntervalSince1970: 1_767_258_000)
        var newest: [ConversationID: Message] = [:]
        for index in 0..<count {
            let message = peerMessage(
                index, id: ids.next(), in: catchUpConversations, at: start.addingTimeInterval(Double(index) / 1_000))
            newest[message.conversationID] = try backend.receive(message)
        }
        return newest.keys.sorted().compactMap { newest[$0] }
    }
}
