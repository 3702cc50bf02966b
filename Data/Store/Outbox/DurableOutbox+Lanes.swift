import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DurableOutbox {
    // MARK: - Lanes

    package func startLane(_ conversation: ConversationID) {
        guard work.lanes[conversation] == nil, !isStopped else { return }
        work.lanes[conversation] = clock.task { [weak self] in
            await self?.runLane(conversation)
        }
    }

    package func runLane(_ conversation: ConversationID) async {
        // Set when an outcome stops the lane (cut off, sign-in, a store that refused) with messages maybe still
        // `sending` behind the batch: nothing else would send them, whatever the connection is by then.
        var stoppedEarly = false
        defer {
            work.lanes[conversation] = nil
            requeueStranded(in: conversation, whatever: stoppedEarly)
            // A Send All is done with what this lane carried: it still waits only for what was cut off.
            if sendAllRequested { noteSendAllRequest() }
            // Messages put back for another automatic round get it from a pass, after the round pause.
            startAutomaticPass(pauseFirst: true)
            releaseLeaseIfIdle()
        }
        while !Task.isCancelled, connectivity.isOnline, !isPausedForSignIn {
            let sending = Array(
                store.all().lazy.filter { $0.conversationID == conversation && $0.status == .sending }
                    .prefix(limits.batchSize))
            guard !sending.isEmpty else { return }
            let (batch, manual) = work.nextBatch(of: sending)
            let renewals = work.signInRenewals
            let results: [Result<Message, DeliveryError>]
            do {
                // The device's own flags stay on the device: a backend gets the message as composed.
                results = try await (manual ? manualRepository : repository).sendBatch(batch.map(\.asComposed))
            } catch {
                // An orderly close (`stop()`, which cancels the lane) cut the send off: not a delivery error, so
                // nothing fails. The batch stays `sending` on disk; the store reopens it as `queued`, resent with the
                // same ids.
                if isStopped || Task.isCancelled { return }
                // Cancelled below the outbox while the lane goes on (a request cut by a connection that dropped and
                // came back at once): nobody answered, so the outcome is unknown and the batch waits in the queue,
                // to be resent under the same ids — never left `sending` with no lane to send it (seed 517).
                results = batch.map { _ in .failure(error == .cancelled ? .unanswered : error) }
            }
            // Stopped while the request ran: the app is closing, so nothing more is recorded (see `stop()`).
            if isStopped { return }
            let outcomes = zip(batch, results).map { message, result in
                result.map { shown(message, storedAs: $0) }
            }
            // What the backend stored is kept for offline reading in one write, as observers are about to see it
            // (not a message the feed's echo delivered first: that kept it then).
            messageCache?.keepDelivered(
                zip(batch, outcomes).compactMap { message, outcome in
                    store.message(message.id) == nil ? nil : try? outcome.get()
                })
            var stop = false
            for (message, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .success(let shown): stop = !delivered(message, shown: shown) || stop
                case .failure(let error):
                    let oldSignIn = work.signInRenewals != renewals
                    stop = attemptFailed(message, error: error, onOldSignIn: oldSignIn) || stop
                }
            }
            // A batch answered with fewer results than messages leaves the rest `sending`: they go next round.
            if stop {
                stoppedEarly = true
                return
            }
        }
    }

    /// `message` as observers see it once the backend stored it (`stored` is the backend's answer or echo): a send
    /// that returned means stored, so it is at least `sent` whatever status the backend echoed, after one attempt
    /// more and no error. The one place an acknowledgement changes a message's status.
    package func shown(_ message: Message, storedAs stored: Message) -> Message {
        var shown = stored.asComposed.acknowledged(at: clock.now)
        shown.attempts = message.attempts + 1
        shown.lastError = nil
        return shown
    }

    /// Records a delivered message: it leaves the store, observers see it `shown`. Returns false when the store
    /// refused: the lane must stop rather than resend a message it cannot forget (the resend would be harmless — the
    /// backend ignores the id — but endless).
    package func delivered(_ message: Message, shown: Message) -> Bool {
        // The feed's echo confirmed it first (`confirmStored`): it left the store then, so this answer is old news.
        guard store.message(message.id) != nil else { return true }
        do {
            try store.remove(message.id)
        } catch {
            storageFailed(
                message, "was delivered", error,
                staysAs: "on disk as sending and is resent (harmlessly) at the next launch")
            return false
        }
        observers.notify(.changed(shown))
        return true
    }

    /// Records a failed attempt; returns whether the lane must stop. `onOldSignIn`: the request left before sign-in
    /// was last renewed.
    package func attemptFailed(_ message: Message, error: DeliveryError, onOldSignIn: Bool = false) -> Bool {
        // The feed's echo said the backend stores it (a lost answer): delivered already, nothing failed.
        guard store.message(message.id) != nil else { return false }
        // Refused on the sign-in that was renewed while the request was out: the renewal that would resend it came
        // already, so it stays `sending` and its lane sends it again now (a refusal of that resend pauses as usual).
        if error.requiresSignIn, onOldSignIn { return false }
        let next: MessageStatus
        let stop: Bool
        var rounds = message.attempts
        if error == .offline || error.isBackendUnreachable {
            // Cut off by connectivity (the device's, or the backend's reachability): not the message's fault, so no
            // round is counted.
            (next, stop) = (.queued, true)
        } else if error.requiresSignIn {
            // Held, not failed: the stored last error marks it for the resend when sign-in is renewed.
            (next, stop) = (.queued, true)
            pauseForSignIn()
        } else {
            rounds += 1
            let anotherRound = error.isRetryable && policy == .automatic && rounds < limits.maxAutomaticRounds
            (next, stop) = (anotherRound ? .queued : .failed, false)
        }
        do {
            let updated = try store.updateStatus(
                of: message.id, to: next, at: clock.now, attempts: rounds, lastError: error)
            observers.notify(.changed(updated))
        } catch let storeError {
            storageFailed(
                message, "was not delivered (\(error))", storeError,
                staysAs: "on disk as sending and is resent at the next launch")
            return true
        }
        return stop
    }

    /// A lane that stops while offline or paused, or that an outcome stopped (`whatever`: a send cut off by a
    /// connection that may be back already), leaves no message `sending`: each goes back to `queued` and is resent
    /// later with the same id. After `stop()` nothing is recorded: the store reopens them as `queued`.
    package func requeueStranded(in conversation: ConversationID, whatever stoppedEarly: Bool = false) {
        guard !isStopped, stoppedEarly || !connectivity.isOnline || isPausedForSignIn || Task.isCancelled else {
            return
        }
        for message in store.all() where message.conversationID == conversation && message.status == .sending {
            work.manualAttempts.remove(message.id)
            do {
                let updated = try store.updateStatus(
                    of: message.id, to: .queued, at: clock.now, attempts: nil, lastError: message.lastError)
                observers.notify(.changed(updated))
            } catch {
                storageFailed(
                    message, "was cut off", error, staysAs: "on disk as sending and is resent at the next launch")
            }
        }
    }

    package func pauseForSignIn() {
        guard !isPausedForSignIn else { return }
        isPausedForSignIn = true
        observers.notify(.pausedForSignIn(true))
    }

    @discardableResult
    package func markSending(_ message: Message) -> Message? {
        do {
            let updated = try store.updateStatus(
                of: message.id, to: .sending, at: clock.now, attempts: nil, lastError: message.lastError)
            observers.notify(.changed(updated))
            return updated
        } catch {
            storageFailed(message, "was to be sent", error, staysAs: "\(message.status.rawValue), unsent")
            return nil
        }
    }
}
