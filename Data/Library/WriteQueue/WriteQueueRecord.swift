import CourierDomain
import CourierStore
import Foundation

/// One record of the write queue's log. Storage records are separate from `PendingWrite` and carry a format
/// version, so the entity can change without breaking logs on disk (docs/design.md §4). Replaying the records in
/// order rebuilds the queue:
///
/// - `put` queues a write (all its fields), first removing the write named by `replaces` (coalescing) — one
///   record, so a torn tail can never keep the removal without the replacement;
/// - `remove` takes a write out, with the reason (`delivered`, `rejected`, `expired`, `abandoned`, `replaced`);
/// - `attempt` records a failed attempt: the new attempt count and the error.
///
/// The body is binary (docs/storage-format.md §4); version-1 JSON bodies of earlier builds are still read.
package struct WriteQueueRecord: Hashable, Sendable {
    /// The record format this code writes: 2, binary (1 was JSON).
    static let currentVersion: UInt8 = 2

    /// What the record does; the raw value is its byte on disk.
    enum Operation: UInt8, CaseIterable, Sendable {
        case put = 1
        case remove = 2
        case attempt = 3
    }

    /// Why a write left the queue, kept in `remove` records for whoever reads the log; the raw value is its byte.
    enum RemovalReason: UInt8, CaseIterable, Sendable {
        case delivered = 1
        case rejected = 2
        case expired = 3
        case abandoned = 4
        case replaced = 5
        case discarded = 6
    }

    /// The format the record was read in (`currentVersion` for a record made here).
    var version = currentVersion
    var operation: Operation
    /// The write concerned.
    var id: String
    /// The whole write (`put`).
    package var write: PendingWrite?
    /// The write a `put` replaces (coalescing).
    var replaces: String?
    /// The new attempt count (`attempt`).
    var attempts: Int?
    /// The new last error (`attempt`; absent clears it).
    var lastError: DeliveryError?
    /// Why the write left (`remove`).
    var reason: RemovalReason?

    // MARK: - Making records

    /// Queues `write`, replacing the write with id `replaces` when given.
    package static func put(_ write: PendingWrite, replacing replaces: String? = nil) -> WriteQueueRecord {
        WriteQueueRecord(operation: .put, id: write.id, write: write, replaces: replaces)
    }

    /// Takes the write with id `id` out.
    static func remove(_ id: String, because reason: RemovalReason) -> WriteQueueRecord {
        WriteQueueRecord(operation: .remove, id: id, reason: reason)
    }

    /// Records a failed attempt of `write` (its attempts and last error as they are now).
    static func attempt(_ write: PendingWrite) -> WriteQueueRecord {
        WriteQueueRecord(operation: .attempt, id: write.id, attempts: write.attempts, lastError: write.lastError)
    }

    // MARK: - Coding

    /// The record's body: version byte, operation byte, then the operation's fields.
    package func encoded() -> Data {
        var writer = BinaryRecordWriter(capacity: 64 + (write?.payload.count ?? 0))
        writer.byte(Self.currentVersion)
        writer.byte(operation.rawValue)
        writer.string(id)
        switch operation {
        case .put:
            guard let write else { break }
            writer.string(write.kind)
            writer.optional(write.key) { $0.string($1) }
            writer.bytes(write.payload)
            writer.double(write.createdAt.timeIntervalSinceReferenceDate)
            writer.int(write.attempts)
            writer.optional(write.lastError) { $0.error($1) }
            writer.optional(replaces) { $0.string($1) }
        case .remove:
            writer.byte(reason?.rawValue ?? 0)
        case .attempt:
            writer.int(attempts ?? 0)
            writer.optional(lastError) { $0.error($1) }
        }
        return writer.data
    }

    /// Reads a stored record, binary or a version-1 JSON one; throws for bytes that are not a record of a version
    /// this code knows.
    package static func decode(_ body: Data) throws -> WriteQueueRecord {
        try LegacyJSONRecord.decode(body, version: currentVersion, json: Self.init(json:)) { reader in
            let operation = try reader.enumeration(Operation.self)
            var record = WriteQueueRecord(operation: operation, id: try reader.string())
            switch operation {
            case .put:
                record.write = PendingWrite(
                    id: record.id, kind: try reader.string(), key: try reader.optional { try $0.string() },
                    payload: try reader.bytes(), createdAt: Date(timeIntervalSinceReferenceDate: try reader.double()),
                    attempts: try reader.int(),
                    lastError: try reader.optional { try $0.error() })
                record.replaces = try reader.optional { try $0.string() }
            case .remove:
                record.reason = try reader.enumeration(RemovalReason.self)
            case .attempt:
                record.attempts = try reader.int()
                record.lastError = try reader.optional { try $0.error() }
            }
            return record
        }
    }
}

extension WriteQueueRecord {
    /// A version-1 record: `{"version":1,"operation":"put","id":…,"kind":…,"key":…,"payload":base64,
    /// "createdAt":…,"replaces":…,"attempts":…,"lastError":{…},"reason":…}`, absent fields left out.
    private init(json: LegacyJSONRecord) throws {
        guard try json.int("version") == 1 else {
            throw RecordFormatError(description: "write queue record version \(try json.int("version"))")
        }
        let name = try json.string("operation")
        guard let operation = Operation.allCases.first(where: { "\($0)" == name }) else {
            throw RecordFormatError(description: "write queue operation \(name)")
        }
        self.init(operation: operation, id: try json.string("id"))
        let lastError = try json.decoded("lastError", as: DeliveryError.self)
        switch operation {
        case .put:
            write = PendingWrite(
                id: id, kind: try json.string("kind"), key: json.optionalString("key"),
                payload: try json.data("payload"), createdAt: try json.date("createdAt"),
                attempts: json.optionalInt("attempts") ?? 0, lastError: lastError)
            replaces = json.optionalString("replaces")
        case .remove:
            reason = RemovalReason.allCases.first { "\($0)" == json.optionalString("reason") }
        case .attempt:
            attempts = json.optionalInt("attempts")
            self.lastError = lastError
        }
    }
}
