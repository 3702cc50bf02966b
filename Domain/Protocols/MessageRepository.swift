import Foundation

/// What the client asks of the backend about messages. Every call may throw `DeliveryError`.
///
/// Sends are idempotent by message id: sending an id the backend already stores is a no-op that succeeds.
public protocol MessageRepository: Sendable {
    /// Sends one message; returns it as the backend stored it (status `sent` or later).
    func send(_ message: Message) async throws -> Message
    /// Sends messages of one conversation as one ordered batch: one result per message, in order. A transport
    /// failure (offline, timeout, unauthorized) throws for the whole batch.
    func sendBatch(_ messages: [Message]) async throws -> [Result<Message, DeliveryError>]
    /// The page of up to `limit` messages just before `cursor` (the newest when nil), oldest first.
    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int) async throws
        -> MessagePage
}

extension MessageRepository {
    /// Sends one at a time, in order. A transport failure stops the batch: the messages already sent count as sent
    /// and the error is thrown when nothing was sent; otherwise the remaining ones carry the error.
    public func sendBatch(_ messages: [Message]) async throws -> [Result<Message, DeliveryError>] {
        var results: [Result<Message, DeliveryError>] = []
        for (index, message) in messages.enumerated() {
            do {
                results.append(.success(try await send(message)))
            } catch let error as DeliveryError where error.isRetryable || error.requiresSignIn {
                if results.isEmpty { throw error }
                results += messages[index...].map { _ in .failure(error) }
                return results
            } catch let error as DeliveryError {
                results.append(.failure(error))
            }
        }
        return results
    }
}
