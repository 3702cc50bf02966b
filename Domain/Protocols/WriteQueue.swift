import Foundation

/// A write waiting in the offline write queue: a typed request (a profile setting, a rating…) whose JSON payload an
/// executor registered for its `kind` turns into a backend call.
public struct PendingWrite: Hashable, Codable, Sendable, Identifiable {
    /// Client-generated id; executors pass it on as the idempotency key, so a resend after a crash is harmless.
    public var id: String
    /// What kind of write it is (`"profile.name"`); chooses the executor.
    public var kind: String
    /// What it writes to (`"displayName"`), for coalescing: a newer write with the same key replaces this one.
    /// Writes without a key are never coalesced.
    public var key: String?
    /// The request body, JSON.
    public var payload: Data
    /// When it was queued, on the queue's clock.
    public var createdAt: Date
    /// How many delivery attempts failed so far.
    public var attempts: Int
    /// The error of the last failed attempt, if any.
    public var lastError: DeliveryError?

    /// Creates a write.
    public init(
        id: String, kind: String, key: String? = nil, payload: Data, createdAt: Date, attempts: Int = 0,
        lastError: DeliveryError? = nil
    ) {
        self.id = id
        self.kind = kind
        self.key = key
        self.payload = payload
        self.createdAt = createdAt
        self.attempts = attempts
        self.lastError = lastError
    }

    /// Decodes the JSON payload, as an executor does.
    public func decodePayload<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(type, from: payload)
    }
}

/// Something that happened to the write queue, for observers: nothing leaves the queue silently.
public enum WriteQueueEvent: Hashable, Sendable {
    /// The number of queued writes changed (a badge, `writes.pending`).
    case pendingCountChanged(Int)
    /// The backend took the write; it left the queue.
    case delivered(PendingWrite)
    /// An attempt failed with a retryable error; the write stays. `retryIn` is the backoff before the next attempt
    /// of this sync, nil when this sync tries it no more.
    case attemptFailed(PendingWrite, DeliveryError, retryIn: Duration?)
    /// The backend refused the write for good (validation, not found); it left the queue.
    case rejected(PendingWrite, DeliveryError)
    /// The write failed as many times as allowed; it left the queue.
    case abandoned(PendingWrite, DeliveryError)
    /// The write was older than the stale limit (7 days by default); it left the queue.
    case expired(PendingWrite)
    /// No executor is registered for the write's kind; it stays queued.
    case noExecutor(PendingWrite)
    /// Syncing paused because sign-in expired (true) or resumed after `signInRenewed()` (false).
    case pausedForSignIn(Bool)
}

/// Why the write queue refused a write. A refused write changed nothing.
public enum WriteQueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind is empty or only white space.
    case emptyKind
    /// The coalescing key is empty (pass nil for "never coalesce").
    case emptyKey
    /// The payload could not be encoded as JSON.
    case unencodablePayload(String)

    public var description: String {
        switch self {
        case .emptyKind: "a write needs a kind"
        case .emptyKey: "a coalescing key cannot be empty (use none)"
        case .unencodablePayload(let reason): "the write's payload cannot be encoded: \(reason)"
        }
    }
}

/// A durable queue of typed writes that reach the backend when the device is online. Enqueue returns
/// once the write is durable; `syncWhenOnline()` delivers through executors registered per kind.
public protocol WriteQueue: Actor {
    /// How many writes are queued.
    var count: Int { get }
    /// Every queued write, in delivery order.
    var allWrites: [PendingWrite] { get }
    /// Whether syncing waits for sign-in to be renewed.
    var isPausedForSignIn: Bool { get }
    /// Queues a write durably (replacing an older queued write with the same `key`) and returns it. Throws
    /// `WriteQueueError` for bad input and `StoreError` when it cannot be stored (full, too large, I/O).
    @discardableResult
    func enqueue<T: Encodable>(kind: String, key: String?, payload: T) throws -> PendingWrite
    /// Delivers queued writes when online; returns how many were delivered. A call made while a sync runs joins it.
    @discardableResult
    func syncWhenOnline() async -> Int
    /// Removes every queued write (durable).
    func clear() throws
    /// Sign-in was renewed: syncing may resume (the next `syncWhenOnline()` does the work).
    func signInRenewed()
}
