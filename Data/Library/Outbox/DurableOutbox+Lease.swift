import CourierDomain
import Foundation

extension DurableOutbox {
    // MARK: - The lease (docs/design.md §2.8)

    /// Stops sending and lets the lease go, for another process to send meanwhile (the app enters the background).
    /// Sends in flight are cut off as at a close: the messages stay, and go again, under the same ids, when this
    /// outbox holds the lease again. What is composed meanwhile is queued.
    public func suspend() {
        wantsLease = false
        guard !isSuspended, !isStopped else { return }
        isSuspended = true
        cutOff = Set(store.all().lazy.filter { $0.status == .sending }.map(\.id))
        automaticPass?.cancel()
        for lane in lanes.values { lane.cancel() }
        lease?.release()
    }

    /// Takes the lease back and sends again (the app is back in the foreground): what other processes composed is
    /// taken in, the sends a suspension or a dead holder cut off go again at once, and the automatic policy runs.
    /// When another process holds the lease this moment, the outbox takes it at its next chance: the next compose,
    /// Send All or `takeInForeignChanges()`.
    public func resume() {
        wantsLease = true
        takeInForeignChanges()
    }

    /// Takes the lease when the outbox wants it and nobody else holds it; returns whether it may send.
    @discardableResult
    func takeLeaseIfFree() -> Bool {
        guard isSuspended else { return true }
        return takeLease() != nil
    }

    /// Takes the lease when the outbox is suspended, wants it and nobody else holds it, and starts sending again;
    /// returns what other processes changed meanwhile, or nil when the lease stays elsewhere.
    func takeLease() -> OutboxForeignChanges? {
        guard isSuspended, wantsLease, !isStopped else { return nil }
        if let lease {
            do {
                guard try lease.tryTake() else { return nil }
            } catch {
                logger.log(.warning, "outbox: cannot take the lease: \(error)")
                return nil
            }
        }
        isSuspended = false
        let changes = absorbForeignChanges()
        resendCutOff()
        startAutomaticPass()
        return changes
    }

    /// Sends again what was `sending` when the lease changed hands: this outbox's own sends a suspension cut off
    /// (queued again by their lanes) and whatever a holder that died left `sending`. Nobody else sends now.
    private func resendCutOff() {
        let cut = cutOff
        cutOff = []
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
