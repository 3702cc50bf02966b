import CourierDomain

/// What a chat holds of its conversation and which part of it is on screen, apart from how it is drawn: every message
/// known (loaded pages, the pending messages read so far, events), where the rows on screen start among them, how far
/// the outbox's pending messages have been read, and where paging goes on. Its mutations keep `start` at the same
/// first row whatever comes or goes above it. A value, tested alone (`ChatWindowTests`).
struct ChatWindow {
    /// Every message known, in the conversation's order. The rows show its tail.
    var timeline = MessageTimeline()
    /// Where the rows start in `timeline`: the messages before it are known but not shown.
    var start = 0
    /// The oldest pending message read from the outbox, while older ones remain unread there: nothing older than it
    /// may show, since an unread pending message could belong between.
    var pendingFrontier: MessageCursor?
    /// Whether the backend has older messages than those loaded.
    var serverHasMore = false
    /// How many rows the older page under way should leave showing.
    var rowsGoal = 0
    /// Where to ask for the page before the oldest loaded (with the backend's token for it, when it gave one); nil
    /// until the newest page came.
    var olderCursor: MessageCursor?
    /// The backend's copy of a message whose row the outbox's pending copy took over (a failed send the backend had
    /// stored, its answer lost): what the row shows again if the outbox lets go of its copy (deleted).
    var storedCopies: [MessageID: Message] = [:]

    /// The messages on screen.
    var rows: ArraySlice<Message> { timeline.messages[start...] }

    /// Where `message` went when it was put in (`place(_:)`).
    enum Placement: Equatable {
        /// Above the rows: known, not shown (the start moved down when it was new).
        case above
        /// Among the rows, at this row, new or in place of the one with its id.
        case row(Int, inserted: Bool)
    }

    /// Puts `message` in place of the one with its id, or at its position when it is new; a new message at the
    /// rows' top joins them when it is the newest or the rows start at the top of the timeline.
    mutating func place(_ message: Message) -> Placement {
        let (index, inserted) = timeline.upsert(message)
        let newest = index == timeline.messages.count - 1
        if index < start || (inserted && index == start && start > 0 && !newest) {
            if inserted { start += 1 }
            return .above
        }
        return .row(index - start, inserted: inserted)
    }

    /// Removes the message with this id; returns the position it had in the timeline (the start moves up when it
    /// was above the rows), nil when it was not known.
    mutating func remove(_ id: MessageID) -> Int? {
        guard let index = timeline.remove(id) else { return nil }
        if index < start { start -= 1 }
        return index
    }
}
