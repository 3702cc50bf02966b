#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the client asks of the backend about messages. Every call throws `DeliveryError` alone (typed).
///
/// What an implementation must do (the contract `MessageRepositoryContractTests` checks on the in-process backend
/// and on the HTTP client; `courier-conformance` checks a backend behind HTTP):
/// - **The id is the idempotency key.** Sending an id the backend already stores, with the same content
///   (conversation, sender, text, timestamp, media), stores nothing new and answers the stored message; the same id
///   with other content throws `DeliveryError.conflict` and changes nothing — never a silent drop:
///   ```swift
///   let stored = try await repository.send(message)
///   let again = try await repository.send(message)             // the stored message, stored once
///   other.text = "changed"                                     // same id, other content
///   await #expect(throws: DeliveryError.conflict) { try await repository.send(other) }
///   ```
/// - **A batch answers each message, in order**, as a send of it alone would have (`sendBatch`).
/// - **Pages go back in compose order** (`Message.composeOrder`: timestamp, then id, whatever order the messages
///   arrived in), oldest first, each `before` cursor giving the page just before it: paging never skips nor repeats a
///   message.
/// - **Errors mean what `DeliveryError` says**: retryable ones (`isRetryable`) may succeed if asked again;
///   `unauthorized` pauses sending until sign-in is renewed; `cancelled` (the caller's task was cancelled) records
///   nothing; the rest fail the message. An implementation over untyped code maps what it catches
///   (`DeliveryError.converting`: a `CancellationError` is `cancelled`).
public protocol MessageRepository: Sendable {
    /// Sends one message; returns it as the backend stored it (status `sent` or later).
    func send(_ message: Message) async throws(DeliveryError) -> Message
    /// Sends messages of one conversation as one ordered batch: one result per message, in order. A transport
    /// failure (offline, timeout, unauthorized) throws for the whole batch.
    func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>]
    /// The page of up to `limit` messages just before `cursor` (the newest when nil), oldest first.
    func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
}

extension MessageRepository {
    /// Sends one at a time, in order. A transport failure stops the batch: the messages already sent count as sent
    /// and the error is thrown when nothing was sent; otherwise the remaining ones carry the error. A cancelled
    /// caller gets `cancelled` for the whole batch.
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        var results: [Result<Message, DeliveryError>] = []
        for (index, message) in messages.enumerated() {
            do {
                results.append(.success(try await send(message)))
            } catch  where error == .cancelled {
                throw error
            } catch  where error.isRetryable || error.requiresSignIn {
                if results.isEmpty { throw error }
                results += messages[index...].map { _ in .failure(error) }
                return results
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}
