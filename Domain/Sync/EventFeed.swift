/// What a backend tells a signed-in user about what others (and their other devices) do: the event feed, its
/// start-over snapshot, and the receipts the user's device writes. Every call throws `DeliveryError` alone (typed);
/// a cancelled caller (a long poll given up) gets `cancelled`.
///
/// The contract (docs/reliability.md): `events` returns a user's events in the backend's order, after the position the
/// device sends back, never skipping one it still keeps. Positions are the backend's tokens (`FeedPosition`), opaque to
/// the device. A cursor older than what is kept is answered `.expired`; a conversation whose events the backend cut
/// short is named in the batch's `gaps`; a backend that states an order for its positions lets the device notice a
/// feed that went back (a reset) by itself. Either way, nothing is missed silently.
public protocol EventFeed: Sendable {
    /// The position of `user`'s newest event: a device with nothing to catch up on starts here.
    func feedEnd(for user: UserID) async throws(DeliveryError) -> FeedPosition
    /// Up to `limit` of `user`'s events after `cursor`, oldest first. When none wait, the answer is held up to `wait`
    /// (a long poll) and given as soon as one arrives; `.zero` answers at once.
    func events(for user: UserID, after cursor: FeedPosition, limit: Int, wait: Duration)
        async throws(DeliveryError) -> FeedAnswer
    /// The first `conversationLimit` conversations of `user` and the newest `messageLimit` messages of each of
    /// `chats`, with the feed position they are true at, in one consistent answer.
    func snapshot(for user: UserID, conversationLimit: Int, chats: [ConversationID], messageLimit: Int)
        async throws(DeliveryError) -> FeedSnapshot
    /// Whether the backend keeps `delivered` markers (Courier's own does; a Matrix homeserver has only `read`). A
    /// device sends none to a backend without them, and its messages go from `sent` to `read`.
    var deliveredReceipts: Bool { get }
    /// Moves `receipt.userID`'s marker forward to `receipt.upTo` (a marker never moves back: an older one is a no-op).
    func mark(_ receipt: Receipt) async throws(DeliveryError)
}

extension EventFeed {
    /// Courier's own backends keep delivered markers.
    public var deliveredReceipts: Bool { true }
}
