import CourierDomain
import CourierOneShot
import CourierPresentation

/// The convergence invariant: once the app is quiet — online, in the foreground, signed in, its feed caught up,
/// nothing left to send but failed messages — what it shows equals a fresh fetch from the backend (`BackendFetch`).
/// Events applied to stale state must give what starting clean gives.
///
/// - **The open chat.** No message shows twice. A row the backend does not hold is one the outbox keeps (a failed
///   message). The rows the backend holds are exactly its messages from the oldest one shown on — none missing,
///   none extra — each with the backend's text, and the user's own ones with the status the backend reports
///   (`sent`, `delivered`, `read`, from the other participants' markers). Order: the chat shows compose order (as
///   `ChatViewModel.State.messages` promises), and so does the backend (`Message.composeOrder`: timestamp, then id,
///   the one order of docs/design.md §2.3), so the rows stand exactly in the backend's order — a message written
///   offline and delivered after others wrote included. A row of a message the outbox still keeps (a failed copy
///   whose id the backend holds with other content) is the outbox's to describe: its text and status are not
///   compared. Once the chat shows the newest message of the other participants, the backend counts
///   nothing unread in it: the read receipt went out.
/// - **The conversation list.** No conversation shows twice. Its loaded rows are the backend's first conversations
///   for the user, most recent activity first (conversations active at the same instant in either order), where a
///   message this device still keeps to send (a failed one) counts as its conversation's activity from when it was
///   composed: the list lifts that row as the chat shows the message at its bottom. Each
///   preview is the conversation's last message: the backend's (what a fresh load shows) or the chat's bottom row
///   (the newest in compose order, a failed message of this device included: what the list keeps as it watches
///   messages come and go). The two differ only by a failed message, which the backend never received; either is
///   what some screen of the app shows for it, and any other (an older message, a deleted one) is stale. Each
///   unread count is the backend's count for the user, except where the device rightly knows better than the
///   backend yet: the open chat's row shows 0, and a conversation whose read receipt this device still has queued is
///   not compared.
enum ConvergenceCheck {
    /// What in `shown` differs from `fresh`, one line per difference; empty when they agree.
    static func violations(shown: ShownScreens, fresh: BackendFetch) -> [String] {
        var found: [String] = []
        if let chat = shown.chat { found += chatViolations(chat, shown: shown, fresh: fresh) }
        found += listViolations(shown, fresh: fresh)
        return found
    }

    // MARK: - The open chat

    private static func chatViolations(_ chat: ShownScreens.OpenChat, shown: ShownScreens, fresh: BackendFetch)
        -> [String]
    {
        let id = chat.conversation
        let pending = Set(shown.pending.map(\.id))
        var found: [String] = []
        var seen: Set<MessageID> = []
        for row in chat.rows where !seen.insert(row.id).inserted {
            found.append("the chat of \(id) shows \(row.id) twice")
        }
        let stored = fresh.messages[id] ?? []
        var position: [MessageID: Int] = [:]
        for (index, message) in stored.enumerated() { position[message.id] = index }
        for row in chat.rows where position[row.id] == nil && !pending.contains(row.id) {
            found.append(
                "the chat of \(id) shows \(row.id) (\(row.status.rawValue)), which neither the backend nor the "
                    + "outbox holds")
        }
        let held = chat.rows.filter { position[$0.id] != nil }
        if let oldest = held.compactMap({ position[$0.id] }).min() {
            let expected = stored[oldest...]
            found += rowOrderViolations(shown: held.map(\.id), expected: expected.map(\.id), in: id)
            found += contentViolations(held, expected: expected, pending: pending, user: fresh.user, in: id)
        }
        let newestFromOthers = stored.last { $0.senderID != fresh.user }
        if let newestFromOthers, seen.contains(newestFromOthers.id), !shown.queuedReads.contains(id),
            let unread = fresh.conversations.first(where: { $0.id == id })?.unreadCount, unread > 0
        {
            found.append("the chat of \(id) shows its newest message, yet the backend counts \(unread) unread")
        }
        return found
    }

    /// The backend's messages from the oldest shown on, in its order (compose order), against the rows shown: what
    /// is missing, else where the order first differs.
    private static func rowOrderViolations(shown: [MessageID], expected: [MessageID], in id: ConversationID)
        -> [String]
    {
        guard shown != expected else { return [] }
        let shownSet = Set(shown)
        let missing = expected.filter { !shownSet.contains($0) }
        if let first = missing.first {
            return [
                "the chat of \(id) lacks \(missing.count) message(s) the backend holds after its oldest row, "
                    + "first \(first)"
            ]
        }
        // Nothing missing: a row out of order, or one shown twice (reported on its own).
        guard let index = shown.indices.first(where: { $0 < expected.count && shown[$0] != expected[$0] }) else {
            return []
        }
        return [
            "the chat of \(id) shows \(shown[index]) where the backend puts \(expected[index]) "
                + "(row \(index) of \(shown.count) from the oldest the backend holds)"
        ]
    }

    private static func contentViolations(
        _ rows: [MessageRow], expected: ArraySlice<Message>, pending: Set<MessageID>, user: UserID,
        in id: ConversationID
    ) -> [String] {
        var found: [String] = []
        let byID = Dictionary(expected.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for row in rows where !pending.contains(row.id) {
            guard let message = byID[row.id] else { continue }
            if row.text != message.text {
                found.append(
                    "the chat of \(id) shows \(row.id) as \"\(row.text)\"; the backend holds \"\(message.text)\"")
            }
            if message.senderID == user, row.status != message.status {
                found.append(
                    "the chat of \(id) shows \(row.id) \(row.status.rawValue); the backend reports "
                        + message.status.rawValue)
            }
        }
        return found
    }

    // MARK: - The conversation list

    private static func listViolations(_ shown: ShownScreens, fresh: BackendFetch) -> [String] {
        var found: [String] = []
        var rank: [ConversationID: Int] = [:]
        for (index, conversation) in fresh.conversations.enumerated() { rank[conversation.id] = index }
        var seen: Set<ConversationID> = []
        for row in shown.list {
            guard seen.insert(row.id).inserted else {
                found.append("the list shows \(row.id) twice")
                continue
            }
            guard let index = rank[row.id] else {
                found.append("the list shows \(row.id), which is not one of \(fresh.user)'s conversations")
                continue
            }
            let conversation = fresh.conversations[index]
            let previews = self.previews(of: conversation, newest: fresh.newest[row.id], pending: shown.pending)
            if !previews.contains(row.preview) {
                found.append(
                    "the list previews \(row.id) as \"\(row.preview)\"; the backend's last message is "
                        + "\"\(previews[0])\"")
            }
            if row.id == shown.chat?.conversation {
                if row.unreadCount != 0 {
                    found.append("the list counts \(row.unreadCount) unread in \(row.id), whose chat is open")
                }
            } else if !shown.queuedReads.contains(row.id), row.unreadCount != conversation.unreadCount {
                found.append(
                    "the list counts \(row.unreadCount) unread in \(row.id); the backend counts "
                        + "\(conversation.unreadCount)")
            }
        }
        found += orderViolations(shown.list, fresh: fresh, pending: shown.pending)
        return found
    }

    /// The rows must be the backend's first conversations in its order, where a message waiting here lifts its
    /// conversation to the instant it was composed (the list shows it on top, as the chat shows it at the bottom,
    /// docs/design.md §2.7); two active at the same instant may swap.
    private static func orderViolations(
        _ rows: [ConversationsListItem], fresh: BackendFetch, pending: [Message]
    ) -> [String] {
        var activity = Dictionary(
            fresh.conversations.map { ($0.id, $0.lastActivity) }, uniquingKeysWith: { first, _ in first })
        for message in pending {
            guard let held = activity[message.conversationID] else { continue }
            activity[message.conversationID] = max(held, message.timestamp)
        }
        let expected = fresh.conversations.enumerated().sorted {
            let (first, second) = (activity[$0.element.id]!, activity[$1.element.id]!)
            return first != second ? first > second : $0.offset < $1.offset
        }.map(\.element.id)
        for (offset, row) in rows.enumerated() where offset < expected.count {
            guard row.id != expected[offset] else { continue }
            if activity[row.id] != activity[expected[offset]] {
                return ["the list shows \(row.id) at row \(offset); the backend puts \(expected[offset]) there"]
            }
        }
        return []
    }

    /// The previews a row may show: the backend's last message (what a fresh load shows), or the newest in
    /// compose order of the backend's messages and this device's failed ones (the chat's bottom row, which the list
    /// keeps as it watches messages come and go).
    private static func previews(of conversation: Conversation, newest: Message?, pending: [Message]) -> [String] {
        let candidates = pending.filter { $0.conversationID == conversation.id } + [newest].compactMap { $0 }
        return [text(of: conversation.lastMessage), text(of: candidates.max(by: Message.composeOrder))]
    }

    /// What the list shows for a last message: its text, or an image's caption ("Photo" without one).
    private static func text(of message: Message?) -> String { ConversationsListItem.previewText(of: message) }
}
