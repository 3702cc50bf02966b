import CourierDomain
import Foundation

extension ChatViewModel {
    // MARK: - Window

    /// The first timeline position that may show: nothing older than the pending frontier.
    var lowestShowable: Int {
        guard let frontier = pendingFrontier else { return 0 }
        return timeline.firstIndex(notBefore: frontier)
    }

    /// Reads the page of pending messages before `cursor` from the outbox into the timeline (above the window).
    func readPending(before cursor: MessageCursor?) {
        let page = outbox.pending(in: conversationID, before: cursor, limit: pageSize + 1)
        let more = page.count > pageSize
        let messages = more ? Array(page.dropFirst()) : page
        let count = timeline.messages.count
        timeline.merge(page: messages)
        if cursor != nil { windowStart += timeline.messages.count - count }
        pendingFrontier = more ? messages.first?.cursor : nil
    }

    /// Puts `message` into the timeline and draws it when it falls in the window (a new message at or below the
    /// window's top joins it); one above the window only moves the window's start.
    func upsert(_ message: Message, previous: Message?, error: String?? = nil) {
        if let previous, previous.cursor != message.cursor {
            // Filed elsewhere than it stood (the backend's time, which a send's answer or its echo carries): its row
            // goes, and comes back at its place below. Its alert stays: it is about the same message.
            let start = windowStart
            if let index = removeFromTimeline(message.id), index >= start {
                renderRemoval(at: index - start, previous: nil)
            }
        }
        let (index, inserted) = timeline.upsert(message)
        let newest = index == timeline.messages.count - 1
        if index < windowStart || (inserted && index == windowStart && windowStart > 0 && !newest) {
            if inserted { windowStart += 1 }
            return
        }
        renderRow(at: index - windowStart, inserted: inserted, previous: previous, error: error)
    }

    /// Removes a message from the timeline; returns where it was (the window's start moves up when it was above).
    @discardableResult
    func removeFromTimeline(_ id: MessageID) -> Int? {
        guard let index = timeline.remove(id) else { return nil }
        if index < windowStart { windowStart -= 1 }
        return index
    }

    /// The message with this id: from the timeline, else a pending message of this chat not read yet (a REF may
    /// name a failed or queued message above the window), which then joins the timeline above the window.
    func knownMessage(_ id: MessageID) -> Message? {
        if let message = timeline.message(id) { return message }
        guard let message = outbox.pending.first(where: { $0.id == id }), message.conversationID == conversationID
        else { return nil }
        let (index, inserted) = timeline.upsert(message)
        if inserted, index <= windowStart { windowStart += 1 }
        return message
    }

    var window: ArraySlice<Message> { timeline.messages[windowStart...] }
}
