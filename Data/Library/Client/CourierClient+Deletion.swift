import CourierDomain
import CourierStore
import Foundation

extension CourierClient: ConversationDeleting {
    /// The write-queue kind of "hide this conversation from my list"; its payload is the conversation id. The app
    /// registers the executor that asks its backend (`writeExecutors`).
    public static let hideConversationKind = "conversation.hide"

    /// The client deletes conversations itself.
    public var conversationDeletion: (any ConversationDeleting)? { self }

    /// Deletes `conversation` from the user's list, in the order that keeps the promise to the user first: its queued
    /// and failed messages leave the outbox (one synced change), then its cached pages and list entry, then its
    /// receipts not yet sent; last the backend's hide is queued durably (`hideConversationKind`, coalesced per
    /// conversation) and synced when online. A crash part-way leaves at worst a row that shows again, empty of
    /// unsent messages, and can be deleted again. Returns the ids of the messages discarded.
    @discardableResult
    public func deleteConversation(_ conversation: ConversationID) throws -> [MessageID] {
        guard !isClosed else { throw StoreError.io("the client is closed") }
        let discarded = try outbox.discardPending(in: conversation)
        messageCache.forget(conversation)
        conversationCache.remove(conversation)
        if let receipts = syncEngine?.receipts {
            let keys = Set(Receipt.Kind.allCases.map { "\($0.rawValue).\(conversation.rawValue)" })
            try receipts.discard { $0.key.map(keys.contains) ?? false }
        }
        try writes.enqueue(
            kind: Self.hideConversationKind, key: "\(Self.hideConversationKind).\(conversation.rawValue)",
            payload: conversation.rawValue)
        syncWrites()
        return discarded
    }
}
