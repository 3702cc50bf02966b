/// How the sync engine listens and catches up.
public struct SyncSettings: Sendable {
    /// Most events asked for in one request.
    public var batchLimit: Int
    /// How long a live request is held at the backend when nothing happens (the long poll).
    public var liveWait: Duration
    /// The shortest time between two live requests that brought nothing: a feed that does not hold a long poll is
    /// not asked in a tight loop.
    public var minimumPollInterval: Duration
    /// The waits after a failed request: 1 s doubling, at most `maxBackoff`.
    public var maxBackoff: Duration
    /// The conversations and messages per chat a start-over snapshot brings.
    public var snapshotConversations: Int
    /// The messages per open chat a start-over snapshot brings.
    public var snapshotMessages: Int

    /// Creates settings.
    public init(
        batchLimit: Int = 500, liveWait: Duration = .seconds(25), minimumPollInterval: Duration = .seconds(1),
        maxBackoff: Duration = .seconds(30), snapshotConversations: Int = 50, snapshotMessages: Int = 50
    ) {
        self.batchLimit = max(1, batchLimit)
        self.liveWait = max(.zero, liveWait)
        self.minimumPollInterval = max(.zero, minimumPollInterval)
        self.maxBackoff = max(.seconds(1), maxBackoff)
        self.snapshotConversations = max(1, snapshotConversations)
        self.snapshotMessages = max(1, snapshotMessages)
    }
}
