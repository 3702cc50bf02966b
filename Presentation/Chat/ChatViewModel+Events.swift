import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Outbox events

    func outboxChanged(_ event: OutboxEvent) {
        switch event {
        case .changed(let message):
            guard message.conversationID == conversationID else { return }
            let before = shown.timeline.message(message.id)
            // A pending message not read yet from the outbox is read with its page, as it then is.
            if before == nil, let frontier = shown.pendingFrontier, message.cursor < frontier { return }
            var error: String??
            if message.status == .failed {
                error = .some(strings.deliveryError(message.lastError ?? .unknown("")))
            } else if !message.status.isPending, before?.status.isPending ?? true {
                error = .some(nil)
            } else if let before, endsSendError(of: before) {
                // The last failed message is failed no more (retried, sent again): its error text ends with it.
                error = .some(nil)
            }
            if message.status.isPending, let before, !before.status.isPending {
                shown.storedCopies[message.id] = before
            } else if !message.status.isPending {
                shown.storedCopies[message.id] = nil
            }
            upsert(message, previous: before, error: error)
        case .deleted(let id):
            // The outbox let go of its pending copy of a message the backend had stored (a failed send whose answer
            // was lost): the row shows the stored message, as every other device does, not nothing (seed 72984).
            if let stored = shown.storedCopies.removeValue(forKey: id), let before = shown.timeline.message(id),
                before.status.isPending
            {
                if store.state.alert?.messageID == id { store.update { $0.alert = nil } }
                upsert(stored, previous: before, error: endsSendError(of: before) ? .some(nil) : nil)
            } else {
                removeRow(id)
            }
        case .pausedForSignIn(let paused):
            let text = strings.deliveryError(.unauthorized)
            render {
                if paused {
                    $0.error = text
                } else if $0.error == text {
                    $0.error = nil
                }
            }
        }
    }

    /// Whether `previous`, a message leaving the failed state (or the chat), takes the chat's error with it: it was
    /// failed, the error is its failure's text, and no other message of the chat is failed.
    func endsSendError(of previous: Message) -> Bool {
        previous.status == .failed
            && store.state.error == strings.deliveryError(previous.lastError ?? .unknown(""))
            && !store.state.failedMessageIDs.contains { $0 != previous.id }
    }

    /// Takes the row of `id` away (deleted here, or by its sender elsewhere), with the alert over it and the send
    /// error it was the last reason for.
    func removeRow(_ id: MessageID) {
        shown.storedCopies[id] = nil
        let before = shown.timeline.message(id)
        let start = shown.start
        let clearsError = before.map(endsSendError(of:)) ?? false
        guard let index = removeFromTimeline(id) else { return }
        if index >= start {
            renderRemoval(at: index - start, previous: before, clearingError: clearsError)
        } else if store.state.alert?.messageID == id {
            store.update { $0.alert = nil }
        }
    }
}
