#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
