import CourierData
import CourierDomain
import Foundation
import Testing

/// A backend an outbox test scripts: every request takes `latency` on the clock; `failures` says which message
/// ids fail with which error (each entry used once); it records what it stored, in arrival order.
@MainActor
final class OutboxTestRepository: MessageRepository {
    let clock: ManualClock
    var latency: Duration = .milliseconds(20)
    /// Latency for requests about one conversation, where it differs.
    var latencyByConversation: [ConversationID: Duration] = [:]
    var failures: [MessageID: [DeliveryError]] = [:]
    var failEverything: DeliveryError?
    private(set) var stored: [Message] = []
    private(set) var requests = 0

    init(clock: ManualClock) { self.clock = clock }

    @MainActor func send(_ message: Message) async throws -> Message {
        requests += 1
        try? await clock.sleep(for: latency)
        return try apply(message)
    }

    @MainActor func sendBatch(_ messages: [Message]) async throws -> [Result<Message, DeliveryError>] {
        requests += 1
        try? await clock.sleep(for: messages.first.flatMap { latencyByConversation[$0.conversationID] } ?? latency)
        if let failEverything { throw failEverything }
        return messages.map { message in Result { try apply(message) }.mapError { $0 as? DeliveryError ?? .notFound } }
    }

    @MainActor func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
    {
        Issue.record("the outbox never loads pages")
        return MessagePage(messages: [], hasMore: false)
    }

    private func apply(_ message: Message) throws -> Message {
        if let failEverything { throw failEverything }
        if var queue = failures[message.id], !queue.isEmpty {
            let error = queue.removeFirst()
            failures[message.id] = queue
            throw error
        }
        var copy = message
        copy.status = .sent
        if !stored.contains(where: { $0.id == message.id }) { stored.append(copy) }
        return copy
    }
}
