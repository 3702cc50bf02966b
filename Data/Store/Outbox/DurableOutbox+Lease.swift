import CourierDomain

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DurableOutbox {
    // MARK: - The lease (docs/design.md §2.8)

    /// The app goes to the background: the outbox lets the lease go as soon as it has nothing to send, for an
    /// extension to send meanwhile. Sends already on their way finish first (as a background task lets them); a
    /// message composed in the background takes the lease again when it is free, and lets it go once sent.
    public func suspend() {
        leaseState.wantsLease = false
        releaseLeaseIfIdle()
    }

    /// The app is back in the foreground: the outbox takes the lease back and keeps it, takes in what other
    /// processes composed, sends again what was `sending` when the lease changed hands, and runs the automatic
    /// policy. When another process holds the lease this moment, the outbox takes it at its next chance: the next
    /// compose, Send All or `takeInForeignChanges()`.
    public func resume() {
        leaseState.wantsLease = true
        takeInForeignChanges()
    }

    /// Lets the lease go when the app does not want it (it is in the background) and nothing is being sent.
    package func releaseLeaseIfIdle() {
        guard leaseState.letsGoWhenIdle, !isStopped, !work.isBusy else { return }
        leaseState.isSuspended = true
        lease?.release()
    }

    /// Takes the lease, for a send this outbox has to make, when nobody else holds it; returns whether it may send.
    @discardableResult
    package func takeLeaseIfFree() -> Bool {
        guard isSuspended else { return true }
        return takeLease(toSend: true) != nil
    }

    /// Takes the lease when the outbox lacks it and nobody else holds it — in the background only for a send it has
    /// to make — and starts sending again; returns what other processes changed meanwhile, or nil when the lease
    /// stays elsewhere.
    package func takeLease(toSend: Bool) -> OutboxForeignChanges? {
        guard leaseState.takes(toSend: toSend), !isStopped else { return nil }
        if let lease {
            do {
                guard try lease.tryTake() else { return nil }
            } catch {
                logger.log(.warning, "outbox: cannot take the lease: \(error)")
                return nil
            }
        }
        leaseState.isSuspended = false
        let changes = absorbForeignChanges()
        resendCutOff()
        resumeRequestedSends()
        startAutomaticPass()
        return changes
    }

    /// Sends again what was `sending` when the lease changed hands (a holder that died left it so) and what this
    /// outbox composed online without the lease. Nobody else sends now.
    private func resendCutOff() {
        let cut = leaseState.takeCutOff()
        guard connectivity.isOnline, !isPausedForSignIn else { return }
        var conversations: [ConversationID] = []
        for message in store.all() where message.status == .sending || cut.contains(message.id) {
            if message.status == .queued, markSending(message) == nil { continue }
            guard message.status == .sending || message.status == .queued else { continue }
            if !conversations.contains(message.conversationID) { conversations.append(message.conversationID) }
        }
        for conversation in conversations { startLane(conversation) }
    }
}
