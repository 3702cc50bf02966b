import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Rendering

    func requireFailed(_ id: MessageID) throws {
        guard let message = knownMessage(id) else { throw InputError.unknownMessage(id) }
        guard message.status == .failed else { throw PresentationError.wrongStatus(id, message.status) }
    }

    /// Rebuilds the rows (relative times read now) and applies `change`, then sleeps until a time text changes.
    func render(_ change: (inout State) -> Void = { _ in }) {
        let now = clock.now
        var rows: [MessageRow] = []
        var failed: [MessageID] = []
        var nextChange: Date?
        if drawn.stillShows(shown, at: now) {
            // Nothing shown changed since the last render (a load that failed, a flag): keep the rows, which also
            // makes comparing the new state with the old one cost nothing per row.
            rows = store.state.messages
            failed = store.state.failedMessageIDs
            nextChange = drawn.nextChange
        } else {
            rows.reserveCapacity(window.count)
            for message in window {
                rows.append(makeRow(message, now: now))
                if message.status == .failed { failed.append(message.id) }
                let change = formatter.nextChange(for: message.timestamp, after: now)
                if nextChange.map({ change < $0 }) ?? true { nextChange = change }
            }
        }
        store.update {
            $0.messages = rows
            $0.failedMessageIDs = failed
            // A newest page that failed says nothing of the beginning: more may come.
            $0.hasMore =
                shown.serverHasMore || shown.start > 0 || shown.pendingFrontier != nil || newestPage.failed
            // The alert goes once its message left the status it is about (retried, deleted, sent from the queue).
            if let alert = $0.alert, shown.timeline.message(alert.messageID)?.status != alert.requiredStatus {
                $0.alert = nil
            }
            change(&$0)
        }
        drawn.drew(shown, at: now, nextChange: nextChange)
        scheduleRefresh(at: nextChange)
    }

    /// Redraws the one row at `index` of the window (new when `inserted`; `previous` is the message it replaces) and
    /// sets `error`
    /// when given: the cost of one event, not of the conversation. A full render when the clock has moved since
    /// the last one, since every row's relative time may then read differently.
    func renderRow(at index: Int, inserted: Bool, previous: Message?, error: String?? = nil) {
        let now = clock.now
        guard drawn.isCurrent(at: now) else {
            render { state in if let error { state.error = error } }
            return
        }
        let message = shown.timeline.messages[shown.start + index]
        let row = makeRow(message, now: now)
        let failed = message.status == .failed || previous?.status == .failed ? failedIDs() : nil
        store.edit { state in
            var changed = false
            if inserted {
                state.messages.insert(row, at: index)
                changed = true
            } else if state.messages[index] != row {
                state.messages[index] = row
                changed = true
            }
            if let error, state.error != error {
                state.error = error
                changed = true
            }
            // The alert or sheet goes once its message left the status it is about (sent from the queue, retried).
            if let alert = state.alert, alert.messageID == message.id, message.status != alert.requiredStatus {
                state.alert = nil
                changed = true
            }
            return Self.apply(failed: failed, to: &state) || changed
        }
        let change = formatter.nextChange(for: message.timestamp, after: now)
        if drawn.needsRefresh(before: change) { scheduleRefresh(at: change) }
    }

    /// Removes the row at `index` of the window (`previous` is its message), like `renderRow`.
    func renderRemoval(at index: Int, previous: Message?, clearingError: Bool = false) {
        guard drawn.isCurrent(at: clock.now) else {
            render { if clearingError { $0.error = nil } }
            return
        }
        let failed = previous?.status == .failed ? failedIDs() : nil
        store.edit { state in
            state.messages.remove(at: index)
            if let alert = state.alert, alert.messageID == previous?.id { state.alert = nil }
            if clearingError { state.error = nil }
            _ = Self.apply(failed: failed, to: &state)
            return true
        }
    }

    private func failedIDs() -> [MessageID] {
        window.lazy.filter { $0.status == .failed }.map(\.id)
    }

    /// Sets the failed ids when given and different; a failed message's alert goes once its message is no longer
    /// failed (a queued message's sheet is about another message, and stays).
    private static func apply(failed: [MessageID]?, to state: inout State) -> Bool {
        guard let failed, failed != state.failedMessageIDs else { return false }
        state.failedMessageIDs = failed
        if let alert = state.alert, alert.requiredStatus == .failed, !failed.contains(alert.messageID) {
            state.alert = nil
        }
        return true
    }

    private func makeRow(_ message: Message, now: Date) -> MessageRow {
        let outgoing = message.senderID == currentUser
        return MessageRow(
            id: message.id, text: message.text, status: message.status, senderID: message.senderID,
            statusLabel: outgoing ? Self.statusLabel(of: message, strings: strings) : "", isOutgoing: outgoing,
            timeText: formatter.string(for: message.timestamp, relativeTo: now),
            canRetry: outgoing && message.status == .failed, imageURL: message.media?.previewURL)
    }

    /// The label under an outgoing bubble: its status's, or, for a queued message whose last send had no answer,
    /// that it is not confirmed yet.
    static func statusLabel(of message: Message, strings: CourierStrings) -> String {
        message.outcomeUnknown && message.status == .queued
            ? strings.unconfirmedLabel : strings.messageStatus(message.status)
    }

    private func scheduleRefresh(at deadline: Date?) {
        // In the background nothing is drawn: the timer stops, and the return redraws and schedules it again.
        guard isInForeground else {
            refreshTimer.cancel()
            drawn.refreshDeadline = nil
            return
        }
        guard deadline != drawn.refreshDeadline || !refreshTimer.isScheduled else { return }
        drawn.refreshDeadline = deadline
        refreshTimer.schedule(at: deadline, coalescing: true) { [weak self] in self?.render() }
    }
}
