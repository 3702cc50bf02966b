import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension OutboxRecord {
    /// Stores a whole message.
    package static func put(_ message: Message) -> OutboxRecord {
        OutboxRecord(kind: .put, message: message)
    }

    /// Moves a message to the status, time, attempts and error of `message` (its state after the change).
    package static func statusChange(of message: Message) -> OutboxRecord {
        OutboxRecord(
            kind: .status, id: message.id.rawValue, status: StorageCode.code(of: message.status),
            at: message.statusUpdatedAt.timeIntervalSinceReferenceDate, attempts: message.attempts,
            error: message.lastError.map(StoredDeliveryError.init))
    }

    /// Changes a message's text.
    package static func textChange(of id: MessageID, to text: String) -> OutboxRecord {
        OutboxRecord(kind: .text, id: id.rawValue, text: text)
    }

    /// Removes a message.
    package static func removal(of id: MessageID) -> OutboxRecord { OutboxRecord(kind: .remove, id: id.rawValue) }

    /// Removes every message.
    package static let clearing = OutboxRecord(kind: .clear)
    /// The record of a Send All.
    package static let sendAll = OutboxRecord(kind: .sendAllMark)

    /// Keeps `conversation`'s newest compose stamp across a compaction.
    package static func mark(_ conversation: ConversationID, stamp: Date) -> OutboxRecord {
        OutboxRecord(kind: .stampMark, conversation: conversation.rawValue, stamp: stamp.timeIntervalSinceReferenceDate)
    }
}
