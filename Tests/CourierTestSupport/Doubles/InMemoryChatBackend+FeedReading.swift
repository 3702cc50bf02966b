import CourierDomain
import CourierFakes
import Foundation

extension InMemoryChatBackend {
    /// Every event `user`'s feed keeps after `cursor`, oldest first, read batch by batch as a device would; nil when
    /// the cursor expired.
    @MainActor
    public func feedEvents(for user: UserID, after cursor: FeedPosition = .start) throws -> [FeedEvent]? {
        var events: [FeedEvent] = []
        var cursor = cursor
        while true {
            let answer = try self.events(for: user, after: cursor, limit: 100, wait: .zero, as: user)
            guard case .batch(let batch) = answer else {
                return nil
            }
            events += batch.events
            cursor = batch.end
            if !batch.hasMore { return events }
        }
    }

    /// What `user`'s feed says happened, one line per event: "3 message m1", "4 read ana m1", "5 delivered ben m2".
    @MainActor
    public func feedLines(for user: UserID, after cursor: FeedPosition = .start) throws -> [String]? {
        try feedEvents(for: user, after: cursor)?.map { event in
            switch event.change {
            case .message(let message): "\(event.position) message \(message.id)"
            case .receipt(let receipt): "\(event.position) \(receipt.kind) \(receipt.userID) \(receipt.upTo.id)"
            case .conversation(let conversation): "\(event.position) conversation \(conversation.id)"
            case .deletion(let deletion): "\(event.position) deletion \(deletion.messageID)"
            }
        }
    }

    /// A receipt of `user`'s covering the stored message `id` (in that message's conversation), as a device writes
    /// it. Throws `.notFound` when no such message is stored.
    @MainActor
    public func receipt(_ kind: Receipt.Kind, by user: UserID, upTo id: MessageID) throws -> Receipt {
        guard let message = message(id) else { throw DeliveryError.notFound }
        return Receipt(conversationID: message.conversationID, userID: user, kind: kind, upTo: message.cursor)
    }

    /// The status each message of `conversation` shows its sender on the newest page (a request), by id: "m0 read".
    @MainActor
    public func shownStatuses(in conversation: ConversationID) throws -> [String] {
        try messages(in: conversation, before: nil, limit: 1_000).messages.map { "\($0.id) \($0.status)" }
    }
}
