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

    /// Creates limits.
    public init(
        maxHeaderBytes: Int = 16 * 1_024, maxBodyBytes: Int = 4 * 1_024 * 1_024, requestTimeout: Duration = .seconds(5),
        idleTimeout: Duration = .seconds(30), maxConnections: Int = 64, maxHeldPolls: Int = 48
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxHeldPolls = maxHeldPolls
    }
}
