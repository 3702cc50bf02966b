import Foundation

/// The bounds on what one request may ask the server to store or do, so that no request costs the server (or the
/// users it answers next) more than a small, known amount: each refusal is a 422 naming its limit, and writes past a
/// user's rate are 429 with `Retry-After`.
public struct ContentLimits: Sendable {
    /// A message's text, in characters.
    public var maxTextCharacters: Int
    /// A message's text, in UTF-8 bytes.
    public var maxTextBytes: Int
    /// A display name, in characters (and four times as many UTF-8 bytes).
    public var maxNameCharacters: Int
    /// An id (message, conversation, user), in UTF-8 bytes.
    public var maxIDBytes: Int
    /// A media URL, in UTF-8 bytes.
    public var maxURLBytes: Int
    /// Messages in one batch.
    public var maxBatchMessages: Int
    /// Distinct ids in one `ids=` list (duplicates are dropped first).
    public var maxQueryIDs: Int
    /// Writes (a message, a receipt, a name, a presence, a hide) one user may make at once before the rate applies.
    public var writeBurst: Int
    /// Writes per second one user may make once the burst is spent.
    public var writesPerSecond: Int
    /// Requests (of any kind) one bearer token may make at once before the request rate applies.
    public var requestBurst: Int
    /// Requests per second one bearer token may make once the burst is spent.
    public var requestsPerSecond: Int
    /// How far past the server's clock a message's time (its compose stamp) may be: a device's clock may run ahead,
    /// but not so far that its messages stand above everything for good.
    public var maxStampAhead: Duration
    /// The earliest time a message may carry: 2000-01-01T00:00:00Z.
    public static let earliestStamp = Date(timeIntervalSince1970: 946_684_800)

    /// Creates limits.
    public init(
        maxTextCharacters: Int = 4_000, maxTextBytes: Int = 16_384, maxNameCharacters: Int = 64,
        maxIDBytes: Int = 128, maxURLBytes: Int = 2_048, maxBatchMessages: Int = 100, maxQueryIDs: Int = 1_000,
        writeBurst: Int = 1_000, writesPerSecond: Int = 100, requestBurst: Int = 1_000, requestsPerSecond: Int = 200,
        maxStampAhead: Duration = .seconds(86_400)
    ) {
        self.maxTextCharacters = maxTextCharacters
        self.maxTextBytes = maxTextBytes
        self.maxNameCharacters = maxNameCharacters
        self.maxIDBytes = maxIDBytes
        self.maxURLBytes = maxURLBytes
        self.maxBatchMessages = maxBatchMessages
        self.maxQueryIDs = maxQueryIDs
        self.writeBurst = writeBurst
        self.writesPerSecond = writesPerSecond
        self.requestBurst = requestBurst
        self.requestsPerSecond = requestsPerSecond
        self.maxStampAhead = maxStampAhead
    }
}
