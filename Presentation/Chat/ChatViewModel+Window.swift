import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Window

    /// The first timeline position that may show: nothing older than the pending frontier.
    var lowestShowable: Int {
        guard let frontier = shown.pendingFrontier else { return 0 }
        return shown.timeline.firstIndex(notBefore: frontier)
    }

    /// Reads the page of pending messages before `cursor` from the outbox into the timeline (above the window).
    func readPending(before cursor: MessageCursor?) {
        let page = outbox.pending(in: conversationID, before: cursor, limit: pageSize + 1)
        let more = page.count > pageSize
        let messages = more ? Array(page.dropFirst()) : page
        let count = shown.timeline.messages.count
        shown.timeline.merge(page: messages)
        if cursor != nil { shown.start += shown.timeline.messages.count - count }
        shown.pendingFrontier = more ? messages.first?.cursor : nil
    }

    /// Puts `message` into the timeline and draws it when it falls in the window (a new message at or below the
    /// window's top joins it); one above the window only moves the window's start.
    func upsert(_ message: Message, previous: Message?, error: String?? = nil) {
        if let previous, previous.cursor != message.cursor {
            // Filed elsewhere than it stood (the backend's time, which a send's answer or its echo carries): its row
            // goes, and comes back at its place below. Its alert stays: it is about the same message.
            let start = shown.start
            if let index = removeFromTimeline(message.id), index >= start {
                renderRemoval(at: index - start, previous: nil)
            }
        }
        guard case .row(let row, let inserted) = shown.place(message) else { return }
        renderRow(at: row, inserted: inserted, previous: previous, error: error)
    }

    /// Removes a message from the timeline; returns where it was (the window's start moves up when it was above).
    @discardableResult
    func removeFromTimeline(_ id: MessageID) -> Int? {
        shown.remove(id)
    }

    /// The message with this id: from the timeline, else a pending message of this chat not read yet (a REF may
    /// name a failed or queued message above the window), which then joins the timeline above the window.
    func knownMessage(_ id: MessageID) -> Message? {
        if let message = shown.timeline.message(id) { return message }
        guard let message = outbox.pending.first(where: { $0.id == id }), message.conversationID == conversationID
        else { return nil }
        let (index, inserted) = shown.timeline.upsert(message)
        if inserted, index <= shown.start { shown.start += 1 }
        return message
    }

    var window: ArraySlice<Message> { shown.rows }
}
