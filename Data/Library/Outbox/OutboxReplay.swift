import CourierDomain
import Foundation

/// The outbox that `outbox.log` describes, built one record at a time as the log is read, each record decoded in
/// place from the file's bytes (docs/storage-format.md).
///
/// Records about an unknown message (whose `put` was lost to corruption) are ignored and counted. A message from a
/// version-1 record has no sequence: it gets the next one of its conversation in log order, which is the order it
/// was enqueued in — compose order — and the same on every open, so the numbers are stable until a compaction
/// writes them down.
struct OutboxReplay {
    /// The messages so far, by id.
    private(set) var messages: [MessageID: Message] = [:]
    /// The highest compose sequence each conversation has used so far.
    private(set) var marks: [ConversationID: Int] = [:]
    /// Records ignored so far: they named a message the log does not hold, or held a field no message can take.
    private(set) var ignored = 0

    private let logger: Logger

    /// Starts an empty outbox with room for `capacity` messages.
    init(capacity: Int, logger: Logger) {
        self.logger = logger
        messages.reserveCapacity(capacity)
    }

    /// Continues from `index`: the records that follow it are applied on top (another process's appends).
    init(continuing index: OutboxIndex, logger: Logger) {
        self.logger = logger
        messages = index.byID
        marks = index.sequenceMarks
    }

    /// The outbox replayed so far, indexed.
    var index: OutboxIndex { OutboxIndex(replayed: messages, marks: marks) }

    /// Applies the record whose body is `body`. Throws (and changes nothing) when the body cannot be decoded:
    /// `RecordNewerVersion` for a newer layout, `RecordFormatError` for a malformed one.
    mutating func apply(body: UnsafeRawBufferPointer) throws {
        // A put — every record of a queue that only waits — is read straight into the table, with no record value
        // between: a record is a few hundred bytes, and each layer it passed through moved all of them again.
        if body.count >= 2, body[1] == OutboxRecord.Kind.put.rawValue {
            let (message, sequenced) = try BinaryRecordReader.reading(body) { reader in
                let version = try reader.version(from: 1, through: OutboxRecord.currentVersion)
                _ = try reader.byte()
                return (try Message(reading: &reader, withSequence: version >= 2), version >= 2)
            }
            insert(message, sequenced: sequenced)
            return
        }
        var record = try OutboxRecord(body: body)
        do {
            try apply(&record)
        } catch {
            ignored += 1
            logger.log(.warning, "outbox: ignored a stored \(record.kind.rawValue) record: \(error)")
        }
    }

    /// Applies `record`, taking its message (a `put`'s is moved into the table, not copied).
    private mutating func apply(_ record: inout OutboxRecord) throws {
        switch record.kind {
        case .put:
            guard let message = record.message.take() else { throw RecordFormatError(description: "no message") }
            insert(message, sequenced: record.sequence != nil)
        case .status:
            let id = try existingID(record)
            guard let code = record.status, let at = record.at else {
                throw RecordFormatError(description: "a status change without a status and time")
            }
            let status = try StorageCode.status(code)
            let lastError = try record.error.map(DeliveryError.init)
            messages[id]?.status = status
            messages[id]?.statusUpdatedAt = Date(timeIntervalSinceReferenceDate: at)
            if let attempts = record.attempts { messages[id]?.attempts = attempts }
            messages[id]?.lastError = lastError
        case .text:
            let id = try existingID(record)
            guard let text = record.text else { throw RecordFormatError(description: "no text") }
            messages[id]?.text = text
        case .remove:
            messages.removeValue(forKey: try existingID(record))
        case .clear:
            messages.removeAll()
        case .mark:
            guard let raw = record.conversation, let sequence = record.sequence else {
                throw RecordFormatError(description: "a mark without a conversation and sequence")
            }
            let conversation = ConversationID(raw)
            marks[conversation] = max(marks[conversation] ?? 0, sequence)
        }
    }

    /// Stores `message`; one from a record without a sequence gets its conversation's next.
    private mutating func insert(_ message: consuming Message, sequenced: Bool) {
        // One lookup of the conversation's mark, read and raised in place.
        Self.raise(&marks[message.conversationID, default: 0], for: &message, sequenced: sequenced)
        // Moved in, not copied: a copy would retain the message's strings only to release them again.
        let id = message.id
        messages[id] = consume message
    }

    private static func raise(_ mark: inout Int, for message: inout Message, sequenced: Bool) {
        if !sequenced { message.sequence = mark + 1 }
        mark = max(mark, message.sequence)
    }

    private func existingID(_ record: OutboxRecord) throws -> MessageID {
        guard let raw = record.id, messages[MessageID(raw)] != nil else {
            throw RecordFormatError(description: "no stored message \(record.id ?? "(none)")")
        }
        return MessageID(raw)
    }
}
