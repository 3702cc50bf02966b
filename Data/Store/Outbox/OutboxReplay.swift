import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The outbox that `outbox.log` describes, built one record at a time as the log is read, each record decoded in
/// place from the file's bytes (docs/storage-format.md).
///
/// Records about an unknown message (whose `put` was lost to corruption) are ignored and counted. Each
/// conversation's stamp mark is the newest compose stamp its `put`s and `stampMark`s carried; an earlier build's
/// `sequenceMark` carries no stamp and is passed over.
package struct OutboxReplay {
    /// The messages so far, by id.
    private(set) var messages: [MessageID: Message] = [:]
    /// The newest compose stamp each conversation has had so far.
    private(set) var marks: [ConversationID: Date] = [:]
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
        marks = index.stampMarks
    }

    /// The outbox replayed so far, indexed.
    var index: OutboxIndex { OutboxIndex(replayed: messages, marks: marks) }

    /// Applies the record whose body is `body`. Throws (and changes nothing) when the body cannot be decoded:
    /// `RecordNewerVersion` for a newer layout, `RecordFormatError` for a malformed one.
    mutating func apply(body: UnsafeRawBufferPointer) throws {
        // A put — every record of a queue that only waits — is read straight into the table, with no record value
        // between: a record is a few hundred bytes, and each layer it passed through moved all of them again.
        if body.count >= 2, body[1] == OutboxRecord.Kind.put.rawValue {
            let message = try BinaryRecordReader.reading(body) { reader in
                let version = try reader.version(from: 1, through: OutboxRecord.currentVersion)
                _ = try reader.byte()
                return try Message(reading: &reader, withReservedField: version >= 2)
            }
            insert(message)
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
            insert(message)
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
            // The rules of `Message.changingStatus`: an attempt that may have been applied leaves the outcome unknown,
            // and one that ended failed carried a Send All's request out.
            if lastError?.mayHaveBeenApplied == true { messages[id]?.outcomeUnknown = true }
            if status == .failed { messages[id]?.sendRequested = false }
        case .text:
            let id = try existingID(record)
            guard let text = record.text else { throw RecordFormatError(description: "no text") }
            messages[id]?.text = text
        case .remove:
            messages.removeValue(forKey: try existingID(record))
        case .sendAllMark:
            for (id, message) in messages where message.status == .queued || message.status == .failed {
                messages[id]?.sendRequested = true
            }
        case .clear:
            messages.removeAll()
        case .sequenceMark:
            break
        case .stampMark:
            guard let raw = record.conversation, let stamp = record.stamp else {
                throw RecordFormatError(description: "a mark without a conversation and stamp")
            }
            let mark = Date(timeIntervalSinceReferenceDate: stamp)
            Self.raise(&marks[ConversationID(raw), default: .distantPast], to: mark)
        }
    }

    /// Stores `message` and raises its conversation's stamp mark to its timestamp.
    private mutating func insert(_ message: consuming Message) {
        // One lookup of the conversation's mark, read and raised in place.
        Self.raise(&marks[message.conversationID, default: .distantPast], to: message.timestamp)
        // Moved in, not copied: a copy would retain the message's strings only to release them again.
        let id = message.id
        messages[id] = consume message
    }

    private static func raise(_ mark: inout Date, to stamp: Date) {
        if stamp > mark { mark = stamp }
    }

    private func existingID(_ record: OutboxRecord) throws -> MessageID {
        guard let raw = record.id, messages[MessageID(raw)] != nil else {
            throw RecordFormatError(description: "no stored message \(record.id ?? "(none)")")
        }
        return MessageID(raw)
    }
}
