import CourierDomain

/// One change to the outbox, as stored in one record of `outbox.log` (binary layout in docs/storage-format.md).
///
/// Storage types are separate from the domain's `Message` so the domain can evolve without silently changing the
/// bytes on disk. The body is a compact binary layout rather than JSON because every open decodes every record,
/// and JSON decoding made opening a large outbox twice as slow as the floor allows.
package struct OutboxRecord: Equatable {
    /// The record layout this code writes; a record with a higher version is refused, never skipped.
    ///
    /// Version 2 added a field at the end of a `put` (once a compose sequence, now written 0 and never read: the
    /// timestamp is the order key) and the mark kinds; version-1 records still read.
    static let currentVersion: UInt8 = 2

    /// What the record does; the raw value is its byte on disk.
    package enum Kind: UInt8 {
        /// Stores a whole message (enqueue, and every live message after a compaction).
        case put = 1
        /// Changes a message's status, status time, attempts and last error.
        case status = 2
        /// Changes a message's text.
        case text = 3
        /// Removes a message.
        case remove = 4
        /// Removes every message.
        case clear = 5
        /// The highest compose sequence a conversation had used, written by the compactions of earlier builds,
        /// which ordered by it. Read and ignored: the order key is the compose stamp (`stampMark`).
        case sequenceMark = 6
        /// The newest compose stamp a conversation has had, written by a compaction so that its stamps never go
        /// back after every message of the conversation is gone from the log.
        case stampMark = 7
        /// Send All: every queued and failed message held at this point of the log is `sendRequested`.
        case sendAllMark = 8
    }

    package var kind: Kind
    /// The message concerned (`status`, `text`, `remove`).
    var id: String?
    /// The whole message (`put`). Decoded straight into the domain's type, whose stored layout is spelt out field by
    /// field in `BinaryRecordWriter.message(_:)` and `Message.init(reading:withReservedField:)`: every open decodes
    /// every put.
    var message: Message?
    /// The new status code (`status`).
    var status: UInt8?
    /// When the status changed (`status`), seconds since 2001-01-01 UTC.
    var at: Double?
    /// The new attempt count (`status`); absent keeps the old one.
    var attempts: Int?
    /// The new last error (`status`); absent clears it.
    var error: StoredDeliveryError?
    /// The new text (`text`).
    var text: String?
    /// The conversation (`sequenceMark`, `stampMark`).
    var conversation: String?
    /// An earlier build's highest compose sequence (`sequenceMark`), read and ignored.
    var sequence: Int?
    /// The newest compose stamp (`stampMark`), seconds since 2001-01-01 UTC.
    var stamp: Double?

    init(
        kind: Kind, id: String? = nil, message: Message? = nil, status: UInt8? = nil, at: Double? = nil,
        attempts: Int? = nil, error: StoredDeliveryError? = nil, text: String? = nil, conversation: String? = nil,
        sequence: Int? = nil, stamp: Double? = nil
    ) {
        self.kind = kind
        self.id = id
        self.message = message
        self.status = status
        self.at = at
        self.attempts = attempts
        self.error = error
        self.text = text
        self.conversation = conversation
        self.sequence = sequence
        self.stamp = stamp
    }
}
