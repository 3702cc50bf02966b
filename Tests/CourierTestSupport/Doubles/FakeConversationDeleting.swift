import CourierDomain

/// The conversation deletion a test sets up: the one stand-in for `ConversationDeleting`. It deletes what it is asked
/// to through `outbox` (so the outbox announces each discarded message), records each deletion, or throws `refusal`
/// while one is set.
@MainActor
public final class FakeConversationDeleting: ConversationDeleting {
    /// The outbox whose pending messages a deletion discards.
    public let outbox: FakeMessageOutbox
    /// What every deletion throws, while set.
    public var refusal: StoreError?
    /// The conversations deleted, in order (a refused deletion is not one).
    public private(set) var deleted: [ConversationID] = []

    /// Deletes through `outbox`.
    public init(outbox: FakeMessageOutbox) { self.outbox = outbox }

    /// Discards the conversation's queued and failed messages through the outbox; returns their ids.
    public func deleteConversation(_ conversation: ConversationID) throws -> [MessageID] {
        if let refusal { throw refusal }
        deleted.append(conversation)
        return try outbox.discardPending(in: conversation)
    }
}
