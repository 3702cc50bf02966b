import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Outbox events

    func outboxChanged(_ event: OutboxEvent) {
        switch event {
        case .changed(let message):
            guard message.conversationID == conversationID else { return }
            let before = timeline.message(message.id)
            // A pending message not read yet from the outbox is read with its page, as it then is.
            if before == nil, let frontier = pendingFrontier, message.cursor < frontier { return }
            var error: String??
            if message.status == .failed {
                error = .some(strings.deliveryError(message.lastError ?? .unknown("")))
            } else if !message.status.isPending, before?.status.isPending ?? true {
                error = .some(nil)
            }
            upsert(message, previous: before, error: error)
        case .deleted(let id):
            let before = timeline.message(id)
            let start = windowStart
            guard let index = removeFromTimeline(id) else { return }
            if index >= start {
                renderRemoval(at: index - start, previous: before)
            } else if store.state.alert?.messageID == id {
                store.update { $0.alert = nil }
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
}
