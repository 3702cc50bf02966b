import CourierDomain
import CourierStore
import Foundation

// MARK: - The event feed's bodies (docs/http-api.md, "Event feed")

extension HTTPWire {
    /// The longest a long poll is held (`GET /events?timeout=S`, S at most 60 seconds).
    public static let maxEventWait: Duration = .seconds(60)
    /// The status of an expired feed cursor: the events after it were forgotten, so the device starts over.
    public static let expiredStatus = 410
    /// The body of an expired cursor's answer.
    public static let expiredBody = ErrorBody(
        error: "expired", reason: "the cursor is older than the events kept: start over from a snapshot")

    /// `GET /events`: the events after the cursor, oldest first, where the next request starts, and whether more wait.
    public struct EventsBody: Codable, Sendable {
        /// The events.
        public var events: [EventBody]
        /// The `after` of the next request: the last event's position, or the cursor asked with when there were none.
        public var end: FeedPosition
        /// Whether more events wait already (the answer was cut at its limit).
        public var hasMore: Bool

        /// The body of `batch`.
        public init(_ batch: FeedBatch) {
            events = batch.events.map(EventBody.init)
            end = batch.end
            hasMore = batch.hasMore
        }

        /// The batch it carries; nil when an event is malformed.
        public var batch: FeedBatch? {
            let decoded = events.compactMap(\.event)
            guard decoded.count == events.count else { return nil }
            return FeedBatch(events: decoded, end: end, hasMore: hasMore)
        }
    }

    /// One event: its position, its `type` (`message`, `receipt`, `conversation` or `deletion`) and the one field of
    /// that name, holding the `Message`, `Receipt`, `Conversation` or `MessageDeletion` entity as JSON.
    public struct EventBody: Codable, Sendable {
        /// Where it stands in the user's feed.
        public var position: FeedPosition
        /// What happened: `message`, `receipt`, `conversation` or `deletion`.
        public var type: String
        /// The message stored (type `message`).
        public var message: Message?
        /// The marker that moved (type `receipt`).
        public var receipt: Receipt?
        /// The conversation created or changed (type `conversation`).
        public var conversation: Conversation?
        /// The message its sender deleted (type `deletion`).
        public var deletion: MessageDeletion?

        /// The body of `event`.
        public init(_ event: FeedEvent) {
            position = event.position
            switch event.change {
            case .message(let message):
                type = "message"
                self.message = message
            case .receipt(let receipt):
                type = "receipt"
                self.receipt = receipt
            case .conversation(let conversation):
                type = "conversation"
                self.conversation = conversation
            case .deletion(let deletion):
                type = "deletion"
                self.deletion = deletion
            }
        }

        /// The event it carries; nil for an unknown type or a type without its field.
        public var event: FeedEvent? {
            let change: FeedEvent.Change? =
                switch type {
                case "message": message.map(FeedEvent.Change.message)
                case "receipt": receipt.map(FeedEvent.Change.receipt)
                case "conversation": conversation.map(FeedEvent.Change.conversation)
                case "deletion": deletion.map(FeedEvent.Change.deletion)
                default: nil
                }
            return change.map { FeedEvent(position: position, change: $0) }
        }
    }

    /// `GET /events/end`: the position of the user's newest event.
    public struct FeedEndBody: Codable, Sendable {
        /// The position (0 before the first event).
        public var position: FeedPosition
        /// Creates a body.
        public init(position: FeedPosition) { self.position = position }
    }

    /// `GET /snapshot`: the feed position the answer is true at, the conversation list's first page and the newest
    /// page of each chat asked for (those of the user's), by conversation id.
    public struct SnapshotBody: Codable, Sendable {
        /// The cursor to go on from.
        public var position: FeedPosition
        /// The conversation list's first page.
        public var conversations: ConversationPageBody
        /// The newest page of each chat, by conversation id.
        public var chats: [String: MessagePageBody]

        /// The body of `snapshot`.
        public init(_ snapshot: FeedSnapshot) {
            position = snapshot.position
            conversations = ConversationPageBody(snapshot.conversations)
            chats = Dictionary(
                uniqueKeysWithValues: snapshot.chats.map { ($0.key.rawValue, MessagePageBody($0.value)) })
        }

        /// The snapshot it carries.
        public var snapshot: FeedSnapshot {
            FeedSnapshot(
                position: position,
                conversations: ConversationPage(
                    conversations: conversations.conversations, hasMore: conversations.hasMore),
                chats: Dictionary(
                    uniqueKeysWithValues: chats.map {
                        (ConversationID($0.key), $0.value.page)
                    }))
        }
    }

    /// `POST /conversations/{id}/receipts`: the signed-in user has received (`delivered`) or read (`read`) the
    /// conversation up to and including a message.
    public struct ReceiptBody: Codable, Sendable {
        /// `delivered` or `read`.
        public var kind: Receipt.Kind
        /// The newest message the marker covers.
        public var messageID: MessageID
        /// That message's timestamp.
        public var timestamp: Date

        /// Creates a body.
        public init(kind: Receipt.Kind, messageID: MessageID, timestamp: Date) {
            self.kind = kind
            self.messageID = messageID
            self.timestamp = timestamp
        }
    }

    /// `GET /conversations/{id}/reads`: each participant's read marker (`null` before their first read).
    public struct ReadsBody: Codable, Sendable {
        /// The id of the newest message each participant has read, by user id.
        public var reads: [String: MessageID?]
        /// Creates a body.
        public init(reads: [String: MessageID?]) { self.reads = reads }
    }
}

// MARK: - Pages from the Domain's

extension HTTPWire.MessagePageBody {
    /// The body of `page`: `nextCursor` is the `before` of the next older page, when there is one.
    public init(_ page: MessagePage) {
        self.init(
            messages: page.messages, hasMore: page.hasMore,
            nextCursor: page.hasMore ? page.messages.first.map { HTTPWire.text(of: $0.cursor) } : nil)
    }
}

extension HTTPWire.ConversationPageBody {
    /// The body of `page`: `nextCursor` is the `after` of the next page, when there is one.
    public init(_ page: ConversationPage) {
        let last = page.hasMore ? page.conversations.last : nil
        self.init(
            conversations: page.conversations, hasMore: page.hasMore,
            nextCursor: last.map { HTTPWire.text(of: ConversationCursor(lastActivity: $0.lastActivity, id: $0.id)) })
    }
}
