/// The bounds that keep one client from holding the server: sizes are checked as bytes arrive, times on every
/// read.
public struct HTTPLimits: Sendable {
    /// The request line and header fields together, in bytes (431 beyond).
    public var maxHeaderBytes: Int
    /// The body, in bytes (413 beyond).
    public var maxBodyBytes: Int
    /// How long a request may take to arrive once its first byte has (408, then the connection is dropped).
    public var requestTimeout: Duration
    /// How long a kept-alive connection may sit idle between requests before it is closed.
    public var idleTimeout: Duration
    /// Connections served at once; one more is answered 503 and closed.
    public var maxConnections: Int
    /// Long polls (`GET /events?timeout=S`) held at once. Each holds its connection (counted in `maxConnections`)
    /// and its thread until it is answered; one more is answered 503 at once, so held polls alone never take more
    /// than this many of the connections. Neither the request nor the idle timeout applies while a poll is held.
    public var maxHeldPolls: Int
    /// Connections nobody has signed in on (no request on them has presented a live token yet). When they are all
    /// taken, a new connection takes the place of the one that has waited longest and is not being answered.
    public var maxAnonymousConnections: Int
    /// How long a connection nobody has signed in on may sit idle, before its first request and between requests.
    public var anonymousIdleTimeout: Duration
    /// Connections one signed-in user holds at once; a request that would make one more is answered 429 and closed.
    public var maxConnectionsPerUser: Int
    /// Long polls one user holds at once; one more is answered 429 and its connection closed.
    public var maxHeldPollsPerUser: Int
    /// A request whose line and header fields exceed this many bytes (a long id list in its query) is heavy: its pure
    /// work is done on a thread of lower CPU priority (`HTTPRequest.isHeavy`), so that on a busy machine it takes
    /// what other requests leave.
    public var heavyHeaderBytes: Int
    /// A request whose body exceeds this many bytes (a large batch) is heavy too.
    public var heavyBodyBytes: Int

    /// Creates limits. `anonymousIdleTimeout` is at most `idleTimeout`.
    public init(
        maxHeaderBytes: Int = 16 * 1_024, maxBodyBytes: Int = 1_024 * 1_024, requestTimeout: Duration = .seconds(5),
        idleTimeout: Duration = .seconds(30), maxConnections: Int = 64, maxHeldPolls: Int = 48,
        maxAnonymousConnections: Int = 16, anonymousIdleTimeout: Duration = .seconds(2),
        maxConnectionsPerUser: Int = 16, maxHeldPollsPerUser: Int = 4, heavyHeaderBytes: Int = 2_048,
        heavyBodyBytes: Int = 64 * 1_024
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxHeldPolls = maxHeldPolls
        self.maxAnonymousConnections = maxAnonymousConnections
        self.anonymousIdleTimeout = min(anonymousIdleTimeout, idleTimeout)
        self.maxConnectionsPerUser = maxConnectionsPerUser
        self.maxHeldPollsPerUser = maxHeldPollsPerUser
        self.heavyHeaderBytes = heavyHeaderBytes
        self.heavyBodyBytes = heavyBodyBytes
    }
}
