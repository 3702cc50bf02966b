import CourierData
import CourierDomain
import CourierTestSupport
import Foundation

/// What the outbox store suites share: a temporary directory and messages at fixed times.
protocol StorageOutboxTesting {
    var directory: TemporaryDirectory { get }
    init(directory: TemporaryDirectory)
}

extension StorageOutboxTesting {
    /// A suite on a fresh temporary directory.
    init() throws { self.init(directory: try TemporaryDirectory()) }

    var start: Date { Date(timeIntervalSinceReferenceDate: 800_000_000.25) }

    func open(limits: OutboxLimits = .init()) throws -> FileOutboxStore {
        try FileOutboxStore(directory: directory.url, limits: limits)
    }

    func reopen(_ store: FileOutboxStore, limits: OutboxLimits = .init()) throws -> FileOutboxStore {
        store.close()
        return try open(limits: limits)
    }

    func message(
        _ id: String, at offset: TimeInterval = 0, text: String = "hello", status: MessageStatus = .queued
    ) -> Message {
        Message(
            id: MessageID(id), conversationID: "c1", senderID: "me", text: text,
            timestamp: start.addingTimeInterval(offset), status: status)
    }

    /// The outbox log's size without the zero-filled space ahead of its records.
    var logSize: Int {
        (try? Data(contentsOf: URL(fileURLWithPath: directory.path(FileOutboxStore.fileName))))?.withoutZeroTail.count
            ?? -1
    }
}
