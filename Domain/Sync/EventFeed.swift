/// What a backend tells a signed-in user about what others (and their other devices) do: the event feed, its
/// start-over snapshot, and the receipts the user's device writes. Every call throws `DeliveryError` alone (typed);
/// a cancelled caller (a long poll given up) gets `cancelled`.
///
/// The contract (docs/reliability.md): each user's events carry strictly increasing `FeedPosition`s; `events` returns
/// them in order, never skipping one it still keeps; a cursor older than what is kept is answered `.expired`, never
/// with a silent gap.
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
    /// Moves `receipt.userID`'s marker forward to `receipt.upTo` (a marker never moves back: an older one is a no-op).
    func mark(_ receipt: Receipt) async throws(DeliveryError)
}
