import CourierDomain
import Foundation

/// One record of the write queue's log. Storage records are separate from `PendingWrite` and carry a format
/// version, so the entity can change without breaking logs on disk (docs/design.md §4). Replaying the records in order
/// rebuilds the queue:
///
/// - `put` queues a write (all its fields), first removing the write named by `replaces` (coalescing) — one
///   record, so a torn tail can never keep the removal without the replacement;
/// - `remove` takes a write out, with the reason (`delivered`, `rejected`, `expired`, `abandoned`, `replaced`);
/// - `attempt` records a failed attempt: the new attempt count and the error.
struct WriteQueueRecord: Codable, Hashable, Sendable {
    /// The record format this code writes.
    static let currentVersion = 1

    /// What the record does.
    enum Operation: String, Codable, Sendable {
        case put, remove, attempt
    }

    /// Why a write left the queue, kept in `remove` records for whoever reads the log.
    enum RemovalReason: String, Codable, Sendable {
        case delivered, rejected, expired, abandoned, replaced
    }

    var version: Int
    var operation: Operation
    var id: String
    var kind: String?
    var key: String?
    var payload: Data?
    var createdAt: Date?
    var replaces: String?
    var attempts: Int?
    var lastError: DeliveryError?
    var reason: RemovalReason?

    // MARK: - Making records

    /// Queues `write`, replacing the write with id `replaces` when given.
    static func put(_ write: PendingWrite, replacing replaces: String? = nil) -> WriteQueueRecord {
        WriteQueueRecord(
            version: currentVersion, operation: .put, id: write.id, kind: write.kind, key: write.key,
            payload: write.payload, createdAt: write.createdAt, replaces: replaces, attempts: write.attempts,
            lastError: write.lastError, reason: nil)
    }

    /// Takes the write with id `id` out.
    static func remove(_ id: String, because reason: RemovalReason) -> WriteQueueRecord {
        WriteQueueRecord(
            version: currentVersion, operation: .remove, id: id, kind: nil, key: nil, payload: nil, createdAt: nil,
            replaces: nil, attempts: nil, lastError: nil, reason: reason)
    }

    /// Records a failed attempt of `write` (its attempts and last error as they are now).
    static func attempt(_ write: PendingWrite) -> WriteQueueRecord {
        WriteQueueRecord(
            version: currentVersion, operation: .attempt, id: write.id, kind: nil, key: nil, payload: nil,
            createdAt: nil, replaces: nil, attempts: write.attempts, lastError: write.lastError, reason: nil)
    }

    // MARK: - Mapping

    /// The write a `put` record queues; nil for other records or a put missing a field.
    var write: PendingWrite? {
        guard operation == .put, let kind, let payload, let createdAt else { return nil }
        return PendingWrite(
            id: id, kind: kind, key: key, payload: payload, createdAt: createdAt, attempts: attempts ?? 0,
            lastError: lastError)
    }

    /// The record as stored bytes (sorted keys, so the same record always gives the same bytes).
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a stored record; throws for bytes that are not a record of a version this code knows.
    static func decode(_ data: Data) throws -> WriteQueueRecord {
        let record = try JSONDecoder().decode(WriteQueueRecord.self, from: data)
        guard record.version == currentVersion else {
            throw StoreError.incompatible("write queue record version \(record.version)")
        }
        return record
    }
}
