import CourierDomain
import CourierStore
import Foundation

/// A `MessageRepository` decorator that applies a `RetryPolicy` (its doc comment lists the branches) to `send`,
/// `sendBatch` and page loads, waiting only on the injected clock.
///
/// Every attempt is raced against a clock sleep of `attemptTimeout` in a task group; the loser is cancelled, so
/// the wrapped repository must honour cancellation (the `NetworkConditioner` does). Backoff waits are cancelled
/// when `connectivity` reports the device offline. Jitter comes from the injected seeded generator.
///
/// Attempts are reported as they end to every `observeAttempts` observer — one `RetryAttempt` each, with its
/// number, error and the backoff that follows — so the caller can record attempt counts and the last error.
///
/// `sendBatch` retries what is still unanswered: a thrown retryable error retries the whole batch (safe, since
/// sends are idempotent by id); per-message retryable failures retry just those messages, in order, within the
/// same budget. When the budget ends, messages already answered keep their answers and the rest carry the final
/// error; if none was answered, the error is thrown.
@MainActor
public final class RetryingMessageRepository {
    private let base: any MessageRepository
    private let policy: RetryPolicy
    private let clock: any Clock
    private let random: LockedRandom
    private let connectivity: any ConnectivityMonitor
    private let observers = ObserverList<RetryAttempt>()

    /// Wraps `base`; waits on `clock`, draws jitter from `random`, and stops waiting when `connectivity` goes
    /// offline.
    public init(
        base: any MessageRepository, policy: RetryPolicy = .standard, clock: any Clock, random: LockedRandom,
        connectivity: any ConnectivityMonitor
    ) {
        self.base = base
        self.policy = policy
        self.clock = clock
        self.random = random
        self.connectivity = connectivity
    }

    /// Calls `observer` with every attempt as it ends, until the token is released.
    public func observeAttempts(_ observer: @escaping @MainActor (RetryAttempt) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    // MARK: - The retry loop

    /// Runs `attempt` under the policy: returns its first success, or throws the final error.
    private func retrying<Value: Sendable>(
        _ operation: RetryAttempt.Operation, _ attempt: @escaping @Sendable @MainActor () async throws -> Value
    ) async throws(DeliveryError) -> Value {
        var number = 1
        while true {
            do {
                let value = try await withAttemptTimeout(attempt)
                observers.notify(RetryAttempt(operation: operation, number: number, error: nil, nextDelay: nil))
                return value
            } catch {
                try await recover(from: error, attempt: number, of: operation)
                number += 1
            }
        }
    }

    /// After failed attempt `number`: reports it, then returns once the backoff has passed when a retry follows,
    /// or throws the final error (`.offline` when the device went offline during the wait, `.cancelled` at once when
    /// the caller was cancelled or the attempt was).
    private func recover(from failure: DeliveryError, attempt number: Int, of operation: RetryAttempt.Operation)
        async throws(DeliveryError)
    {
        if Task.isCancelled || failure == .cancelled { throw DeliveryError.cancelled }
        let decision = policy.decision(
            after: failure, failedAttempts: number, isOnline: connectivity.isOnline, unit: random.nextUnit())
        switch decision {
        case .fail(let final):
            observers.notify(RetryAttempt(operation: operation, number: number, error: failure, nextDelay: nil))
            throw final
        case .retry(let delay):
            observers.notify(RetryAttempt(operation: operation, number: number, error: failure, nextDelay: delay))
            guard try await waitOnline(for: delay) else { throw DeliveryError.offline }
        }
    }

    /// `sendBatch`'s loop: each attempt sends the messages still unanswered, in order.
    private func sendRetryingOpenMessages(_ messages: [Message]) async throws(DeliveryError)
        -> [Result<Message, DeliveryError>]
    {
        guard !messages.isEmpty else { return [] }
        var answers = [Result<Message, DeliveryError>?](repeating: nil, count: messages.count)
        var open = Array(messages.indices)
        var number = 1
        while true {
            let batch = open.map { messages[$0] }
            let operation = RetryAttempt.Operation.sendBatch(batch.map(\.id))
            let failure: DeliveryError
            do throws(DeliveryError) {
                let results = try await withAttemptTimeout { [base] in try await base.sendBatch(batch) }
                guard results.count == batch.count else {
                    throw DeliveryError.unknown("the batch answer does not match the request")
                }
                var stillOpen: [Int] = []
                var retryable: DeliveryError?
                for (index, result) in zip(open, results) {
                    answers[index] = result
                    if case .failure(let error) = result, error.isRetryable {
                        stillOpen.append(index)
                        retryable = retryable ?? error
                    }
                }
                open = stillOpen
                guard let retryable else {
                    observers.notify(RetryAttempt(operation: operation, number: number, error: nil, nextDelay: nil))
                    return answers.compactMap { $0 }
                }
                failure = retryable
            } catch {
                failure = error
            }
            do {
                try await recover(from: failure, attempt: number, of: operation)
            } catch let final {
                guard open.count < messages.count else { throw final }
                for index in open { answers[index] = .failure(final) }
                return answers.compactMap { $0 }
            }
            number += 1
        }
    }

    /// Runs `attempt` (a call of the wrapped repository, which throws `DeliveryError` alone), or throws `.timeout`
    /// when `attemptTimeout` of clock time passes first (the attempt is then cancelled); `.cancelled` when the caller
    /// is.
    private func withAttemptTimeout<Value: Sendable>(_ attempt: @escaping @Sendable @MainActor () async throws -> Value)
        async throws(DeliveryError) -> Value
    {
        let clock = self.clock
        let deadline = clock.now.addingTimeInterval(policy.attemptTimeout.timeInterval)
        // Two tracked tasks on the main actor rather than a task group: the race replays identically under a manual
        // clock, and the ledger knows the caller waits for them (a group's children would not be counted).
        let answer = clock.task { () -> Result<Value, DeliveryError> in
            do { return .success(try await attempt()) } catch { return .failure(DeliveryError(error)) }
        }
        let timer = clock.task { (try? await clock.sleep(until: deadline)) != nil }
        await withTaskCancellationHandler {
            await TrackedWork.first(of: [answer.work, timer.work])
        } onCancel: {
            answer.cancel()
            timer.cancel()
        }
        // Like a group, the race ends only when both have: the loser is cancelled and waited for.
        if answer.work.isFinished {
            timer.cancel()
            _ = await timer.value
            return try await answer.value.get()
        }
        answer.cancel()
        _ = await answer.value
        if Task.isCancelled { throw DeliveryError.cancelled }
        throw DeliveryError.timeout
    }

    /// Sleeps `delay` on the clock; returns false at once when the device is or goes offline first. Throws
    /// `.cancelled` when the caller is cancelled.
    private func waitOnline(for delay: Duration) async throws(DeliveryError) -> Bool {
        guard connectivity.isOnline else { return false }
        let clock = self.clock
        let deadline = clock.now.addingTimeInterval(delay.timeInterval)
        // A task of its own, so going offline can cut the sleep short; the caller waits for it through the ledger.
        let sleep = clock.task { (try? await clock.sleep(until: deadline)) != nil }
        let token = connectivity.observe { online in
            if !online { sleep.cancel() }
        }
        defer { token.cancel() }
        let slept = await withTaskCancellationHandler {
            await sleep.value
        } onCancel: {
            sleep.cancel()
        }
        if Task.isCancelled { throw DeliveryError.cancelled }
        return slept
    }
}

// MARK: - MessageRepository

extension RetryingMessageRepository: MessageRepository {
    /// Sends one message under the policy.
    public func send(_ message: Message) async throws(DeliveryError) -> Message {
        try await retrying(.send(message.id)) { [base] in try await base.send(message) }
    }

    /// Loads a page under the policy.
    public func messages(in conversation: ConversationID, before cursor: MessageCursor?, limit: Int)
        async throws(DeliveryError) -> MessagePage
    {
        try await retrying(.loadPage(conversation)) { [base] in
            try await base.messages(in: conversation, before: cursor, limit: limit)
        }
    }

    /// Sends an ordered batch under the policy, retrying only what is still unanswered (see the type's comment).
    public func sendBatch(_ messages: [Message]) async throws(DeliveryError) -> [Result<Message, DeliveryError>] {
        try await sendRetryingOpenMessages(messages)
    }
}
