import CourierDomain

/// The newest read marker this device made per conversation — the user read everything up to it — as the sync engine
/// keeps them: a marker only moves forward, and the engine's first markers are those of the read receipts still
/// queued from an earlier launch. A value: the engine holds one.
struct ReadMarkers {
    private var markers: [ConversationID: MessageCursor] = [:]
    /// How many read receipts of this device have left the queue (`settled(_:)`), and the count each conversation's
    /// last one made.
    private(set) var settledCount = 0
    private var lastSettled: [ConversationID: Int] = [:]

    /// Markers up to the read receipts among `queued` (a receipt still waiting in the queue was made here).
    init(queued: some Sequence<Receipt> = []) {
        for receipt in queued where receipt.kind == .read { advance(receipt.conversationID, to: receipt.upTo) }
    }

    /// The marker of `conversation`, nil while the user has read nothing there on this device.
    subscript(conversation: ConversationID) -> MessageCursor? { markers[conversation] }

    /// Moves the marker of `conversation` up to `cursor`; returns false, changing nothing, when it stands there or
    /// beyond already.
    @discardableResult
    mutating func advance(_ conversation: ConversationID, to cursor: MessageCursor) -> Bool {
        if let held = markers[conversation], cursor <= held { return false }
        markers[conversation] = cursor
        return true
    }

    /// Whether the marker of `conversation` covers a message at `cursor`: the user read it.
    func covers(_ cursor: MessageCursor, in conversation: ConversationID) -> Bool {
        markers[conversation].map { cursor <= $0 } ?? false
    }

    /// A read receipt of `conversation` left the queue: the backend took it (or it was dropped).
    mutating func settled(_ conversation: ConversationID) {
        settledCount += 1
        lastSettled[conversation] = settledCount
    }

    /// Whether a read receipt of `conversation` left the queue after `mark` (a `settledCount`): a list page
    /// requested at `mark` may not have its read yet.
    func settled(_ conversation: ConversationID, since mark: Int) -> Bool {
        lastSettled[conversation].map { $0 > mark } ?? false
    }
}
